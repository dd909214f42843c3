// NCCL's chosen network read from NCCL_DEBUG=INFO logs. The lines are NCCL 2.4 to 2.19 and
// aws-ofi-nccl 1.6 to 1.11 output as posted in public issue threads (NVIDIA/nccl #226, #676,
// #1053; NVIDIA/nccl-tests #29, #185; aws/aws-ofi-nccl #715, #801; aws/aws-k8s-tester #454),
// with host names and addresses changed.
#include <gtest/gtest.h>

#include "gpusizer/bench/nccl_log.hpp"

namespace gpusizer::bench {
namespace {

TEST(NcclLog, TheAwsOfiPluginOverEfa) {
  const NcclNetwork n = parse_nccl_network(
      "algo-1:18568:18640 [6] NCCL INFO NET/OFI Initializing aws-ofi-nccl 1.11.0-aws\n"
      "algo-1:18568:18640 [6] NCCL INFO NET/OFI Using Libfabric version 1.22\n"
      "algo-1:18568:18640 [6] NCCL INFO NET/OFI Configuring AWS-specific options\n"
      "algo-1:18568:18640 [6] NCCL INFO NET/OFI Setting provider_filter to efa\n"
      "algo-1:18566:18639 [4] NCCL INFO NET/OFI Using transport protocol SENDRECV\n"
      "algo-1:18562:18635 [0] NCCL INFO Using non-device net plugin version 0\n"
      "algo-1:18562:18635 [0] NCCL INFO Using network AWS Libfabric\n");
  EXPECT_EQ(n.name, "AWS Libfabric");
  EXPECT_EQ(n.plugin, "aws-ofi-nccl 1.11.0-aws");
  EXPECT_EQ(n.provider, "efa");
  EXPECT_EQ(n.evidence, "Using network AWS Libfabric");
}

TEST(NcclLog, TheSelectedProviderWinsOverTheFilter) {
  const NcclNetwork n = parse_nccl_network(
      "[0] NCCL INFO NET/OFI Using aws-ofi-nccl 1.6.0\n"
      "[0] NCCL INFO NET/OFI Setting provider_filter to efa\n"
      "[0] NCCL INFO NET/OFI Selected Provider is cxi (found 8 nics)\n"
      "[0] NCCL INFO Using non-device net plugin version 0\n"
      "[0] NCCL INFO Using network AWS Libfabric\n");
  EXPECT_EQ(n.name, "AWS Libfabric");
  EXPECT_EQ(n.plugin, "aws-ofi-nccl 1.6.0");
  EXPECT_EQ(n.provider, "cxi");
}

TEST(NcclLog, PluginFailedAndNcclFellBackToSockets) {
  const NcclNetwork n = parse_nccl_network(
      "[1,0]<stdout>:worker-0:21:570 [0] NCCL INFO NET/OFI Using transport protocol SENDRECV\n"
      "[1,0]<stdout>:\n"
      "[1,0]<stdout>:worker-0:21:570 [0] nccl_net_ofi_create_plugin:257 NCCL WARN NET/OFI "
      "aws-ofi-nccl initialization failed\n"
      "[1,0]<stdout>:worker-0:21:570 [0] NCCL INFO NET/IB : No device found.\n"
      "[1,0]<stdout>:worker-0:21:570 [0] NCCL INFO NET/Socket : Using [0]eth0:192.168.0.7<0>\n"
      "[1,0]<stdout>:worker-0:21:570 [0] NCCL INFO Using non-device net plugin version 0\n"
      "[1,0]<stdout>:worker-0:21:570 [0] NCCL INFO Using network Socket\n");
  EXPECT_EQ(n.name, "Socket");
  EXPECT_EQ(n.plugin, "");
  EXPECT_EQ(n.evidence, "Using network Socket");
}

TEST(NcclLog, InfinibandAndRoce) {
  NcclNetwork n = parse_nccl_network(
      "node-4:460770:460842 [0] NCCL INFO NET/IB : Using [0]mlx5_10:1/RoCE [1]mlx5_11:1/RoCE "
      "[RO]; OOB enp220s0np0:10.1.0.4<0>\r\n"
      "node-4:460770:460842 [0] NCCL INFO Using non-device net plugin version 0\r\n"
      "node-4:460770:460842 [0] NCCL INFO Using network IB\r\n");
  EXPECT_EQ(n.name, "IB");
  EXPECT_EQ(n.evidence, "Using network IB");
  n = parse_nccl_network(
      "gpu19:49355:49414 [1] NCCL INFO P2P plugin IBext\n"
      "gpu19:49355:49414 [1] NCCL INFO Using network IBext\n");
  EXPECT_EQ(n.name, "IBext");
}

// NCCL 2.4 never printed "Using network": the IB transport's "Using" line means IB, else the
// socket transport's.
TEST(NcclLog, OldLogsWithoutUsingNetwork) {
  NcclNetwork n = parse_nccl_network(
      "server3:15223:15223 [7] NCCL INFO NET/Socket : Using [0]enp41s0f1:<0> [1]virbr0:<0>\n"
      "server3:15223:15223 [7] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so).\n"
      "server3:15221:15221 [5] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB enp41s0f1:<0>\n");
  EXPECT_EQ(n.name, "IB");
  EXPECT_EQ(n.evidence, "NET/IB : Using [0]mlx5_0:1/IB ; OOB enp41s0f1:<0>");
  n = parse_nccl_network(
      "ip-10-0-0-11:45384:45384 [0] NCCL INFO NET/IB : No device found.\n"
      "NCCL version 2.4.7+cuda9.2\n"
      "ip-10-0-0-12:45407:45407 [0] NCCL INFO NET/Socket : Using [0]ens3:10.0.0.12<0>\n"
      "ip-10-0-0-12:45407:45407 [0] NCCL INFO NET/Plugin : No plugin found (libnccl-net.so).\n");
  EXPECT_EQ(n.name, "Socket");
  EXPECT_EQ(n.evidence, "NET/Socket : Using [0]ens3:10.0.0.12<0>");
}

TEST(NcclLog, NothingToSay) {
  const NcclNetwork n = parse_nccl_network("NCCL version 2.28.9+cuda13.0\n\nsome other output");
  EXPECT_EQ(n.name, "");
  EXPECT_EQ(n.evidence, "");
  EXPECT_EQ(parse_nccl_network("").name, "");
}

TEST(NcclEnvironment, KeepsNcclLibfabricAndOfiPluginVariablesSorted) {
  const auto env = nccl_environment({"PATH=/usr/bin", "NCCL_DEBUG=INFO", "FI_PROVIDER=efa",
                                     "FI_EFA_USE_DEVICE_RDMA=1", "OFI_NCCL_PROTOCOL=RDMA",
                                     "MY_NCCL_X=1", "NCCL_SOCKET_IFNAME=", "BROKEN"});
  EXPECT_EQ(env, (std::map<std::string, std::string>{{"FI_EFA_USE_DEVICE_RDMA", "1"},
                                                     {"FI_PROVIDER", "efa"},
                                                     {"NCCL_DEBUG", "INFO"},
                                                     {"NCCL_SOCKET_IFNAME", ""},
                                                     {"OFI_NCCL_PROTOCOL", "RDMA"}}));
}

}  // namespace
}  // namespace gpusizer::bench
