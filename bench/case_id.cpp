#include "gpusizer/bench/case_id.hpp"

#include "gpusizer/report.hpp"

namespace gpusizer::bench {

std::string make_id(std::string_view family, std::string_view operation,
                    const std::vector<std::string>& targets, const std::vector<IdPart>& parts) {
  std::string id =
      std::string(family) + "/" + std::string(operation) + "/" + join_target_ids(targets);
  for (const auto& p : parts) id += "/" + (p.key.empty() ? p.value : p.key + "=" + p.value);
  return id;
}

}  // namespace gpusizer::bench
