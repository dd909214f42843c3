// NCCL's network from its INFO log, and the environment that steers it (nccl_log.hpp).
#include "gpusizer/bench/nccl_log.hpp"

namespace gpusizer::bench {
namespace {

// The message of one log line: what follows "NCCL INFO " (or the whole line without it).
std::string_view message_of(std::string_view line) {
  constexpr std::string_view kInfo = "NCCL INFO ";
  const std::size_t at = line.find(kInfo);
  if (at == std::string_view::npos) return {};
  std::string_view m = line.substr(at + kInfo.size());
  while (!m.empty() && (m.back() == '\r' || m.back() == ' ')) m.remove_suffix(1);
  return m;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The first word after `prefix` (up to a space or the end).
std::string word_after(std::string_view m, std::string_view prefix) {
  std::string_view rest = m.substr(prefix.size());
  return std::string(rest.substr(0, rest.find(' ')));
}

}  // namespace

NcclNetwork parse_nccl_network(std::string_view log) {
  NcclNetwork n;
  std::string ib_line, socket_line;
  std::size_t start = 0;
  while (start < log.size()) {
    std::size_t end = log.find('\n', start);
    if (end == std::string_view::npos) end = log.size();
    const std::string_view m = message_of(log.substr(start, end - start));
    start = end + 1;
    if (m.empty()) continue;
    constexpr std::string_view kUsing = "Using network ";
    if (starts_with(m, kUsing) && n.name.empty()) {
      n.name = std::string(m.substr(kUsing.size()));
      n.evidence = std::string(m);
    } else if (starts_with(m, "NET/IB : Using ") && ib_line.empty()) {
      ib_line = std::string(m);
    } else if (starts_with(m, "NET/Socket : Using ") && socket_line.empty()) {
      socket_line = std::string(m);
    } else if (starts_with(m, "NET/OFI Initializing aws-ofi-nccl ") && n.plugin.empty()) {
      n.plugin = "aws-ofi-nccl " + word_after(m, "NET/OFI Initializing aws-ofi-nccl ");
    } else if (starts_with(m, "NET/OFI Using aws-ofi-nccl ") && n.plugin.empty()) {
      n.plugin = "aws-ofi-nccl " + word_after(m, "NET/OFI Using aws-ofi-nccl ");
    } else if (starts_with(m, "NET/OFI Selected Provider is ")) {
      n.provider = word_after(m, "NET/OFI Selected Provider is ");
    } else if (starts_with(m, "NET/OFI Setting provider_filter to ") && n.provider.empty()) {
      n.provider = word_after(m, "NET/OFI Setting provider_filter to ");
    }
  }
  if (n.name.empty() && !ib_line.empty()) {
    n.name = "IB";
    n.evidence = ib_line;
  } else if (n.name.empty() && !socket_line.empty()) {
    n.name = "Socket";
    n.evidence = socket_line;
  }
  return n;
}

std::map<std::string, std::string> nccl_environment(const std::vector<std::string>& environment) {
  std::map<std::string, std::string> out;
  for (const auto& entry : environment) {
    const std::size_t eq = entry.find('=');
    if (eq == std::string::npos) continue;
    const std::string name = entry.substr(0, eq);
    if (starts_with(name, "NCCL_") || starts_with(name, "FI_") || starts_with(name, "OFI_NCCL_"))
      out[name] = entry.substr(eq + 1);
  }
  return out;
}

}  // namespace gpusizer::bench
