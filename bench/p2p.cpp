// P2P family: added with the multi-GPU interface of the CUDA backend. Until a backend offers
// peer copies, there is nothing to add; the runner records why in the report's warnings.
#include "gpusizer/bench/case.hpp"

namespace gpusizer::bench {

void add_p2p_cases(const SuiteContext&, CaseList&) {}

}  // namespace gpusizer::bench
