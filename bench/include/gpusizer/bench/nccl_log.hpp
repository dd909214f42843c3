// What NCCL chose as its network, read from its NCCL_DEBUG=INFO lines, and the NCCL_*, FI_* and
// OFI_NCCL_* environment that steers it: recorded with every collective between ranks, so a
// fleet report says whether inter-node traffic went over EFA (aws-ofi-nccl), InfiniBand or plain
// sockets. Pure: the run writes NCCL's log to a file of its own (NCCL_DEBUG_FILE) and hands the
// text here.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpusizer::bench {

struct NcclNetwork {
  // NCCL's name for the network it uses: "AWS Libfabric" (the aws-ofi-nccl plugin), "IB",
  // "IBext", "Socket", ...; "" when the log does not say.
  std::string name;
  std::string plugin;    // "aws-ofi-nccl 1.11.0-aws" when the OFI plugin introduced itself
  std::string provider;  // the libfabric provider the OFI plugin selected ("efa")
  std::string evidence;  // the line the name was read from, without NCCL's "host:pid:tid [d]"
};

// Reads NCCL's "Using network <name>" (NCCL 2.12 and later); older logs: "NET/IB : Using ..."
// means IB, else "NET/Socket : Using ..." means Socket. The plugin from "NET/OFI Initializing
// aws-ofi-nccl <v>" or "NET/OFI Using aws-ofi-nccl <v>", the provider from "NET/OFI Selected
// Provider is <p>" or "NET/OFI Setting provider_filter to <p>". Lines may carry mpirun's
// "[1,0]<stdout>:" and NCCL's own prefixes.
NcclNetwork parse_nccl_network(std::string_view log);

// The variables of `environment` ("NAME=value" entries, as environ holds them) that configure
// NCCL or libfabric: NCCL_*, FI_*, OFI_NCCL_*; sorted by name.
std::map<std::string, std::string> nccl_environment(const std::vector<std::string>& environment);

}  // namespace gpusizer::bench
