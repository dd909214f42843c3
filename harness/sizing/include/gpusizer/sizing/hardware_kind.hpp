// What kind of hardware a plan row runs on (vocabulary.hpp): a whole GPU, a MIG slice of one, a
// CPU instance type, or an AWS Inferentia / Trainium accelerator. A catalog accelerator is gpu,
// inferentia or trainium; a workload's "allowed" list names any of them.
#pragma once

#include "gpusizer/vocabulary.hpp"

namespace gpusizer {

#define GPUSIZER_HARDWARE_KIND_VALUES(X) \
  X(gpu, "gpu") X(mig, "mig") X(cpu, "cpu") X(inferentia, "inferentia") X(trainium, "trainium")
GPUSIZER_VOCABULARY(HardwareKind, GPUSIZER_HARDWARE_KIND_VALUES)

}  // namespace gpusizer
