// How an instance type is bought (vocabulary.hpp): the keys of a catalog type's "prices" and
// of an overlay's, in the order plans list them.
#pragma once

#include <string>

#include "gpusizer/vocabulary.hpp"

namespace gpusizer {

#define GPUSIZER_PURCHASE_OPTION_VALUES(X) \
  X(on_demand, "on_demand")                \
  X(spot, "spot")                          \
  X(capacity_block, "capacity_block")      \
  X(training_plan, "training_plan") X(savings_plan, "savings_plan") X(reserved, "reserved")
GPUSIZER_VOCABULARY(PurchaseOption, GPUSIZER_PURCHASE_OPTION_VALUES)

}  // namespace gpusizer

namespace gpusizer::sizing {

// Paid for the whole reservation window whatever the use (capacity block, training plan).
constexpr bool is_window_option(PurchaseOption option) {
  return option == PurchaseOption::capacity_block || option == PurchaseOption::training_plan;
}

// The option a catalog price key or a plan row's cost names; the catalog and overlay readers
// accept only these names, so any other is a programming error (std::invalid_argument).
PurchaseOption purchase_option(const std::string& name);

}  // namespace gpusizer::sizing
