// The exit codes of the gpusizer command (README "Exit codes", docs/architecture.md). Library code
// never exits; it returns or throws, and the CLI maps the outcome to one of these.
#pragma once

namespace gpusizer {

inline constexpr int kExitOk = 0;           // done: every planned benchmark recorded
inline constexpr int kExitFailure = 1;      // runtime failure, benchmark error, failed verification
inline constexpr int kExitInputError = 2;   // usage or input error: one line, nothing measured
inline constexpr int kExitStopped = 3;      // run stopped (signal, deadline, budget): --resume it
inline constexpr int kExitEmpty = 4;        // run measured nothing (no target, nothing planned)
inline constexpr int kExitNotVerified = 5;  // verify: a report did not verify (edited, unsigned...)

}  // namespace gpusizer
