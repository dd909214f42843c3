#include "gpusizer/bench/child_runs.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

#include "gpusizer/report_io.hpp"

extern char** environ;

namespace gpusizer::bench {
namespace {

using Clock = std::chrono::steady_clock;

struct Running {
  const ChildSpec* spec = nullptr;
  pid_t pid = -1;
  Clock::time_point start;
  bool term_sent = false;
  bool timed_out = false;
  Clock::time_point term_at;
  std::string spawn_error;
};

Running spawn(const ChildSpec& spec) {
  Running r;
  r.spec = &spec;
  r.start = Clock::now();
  std::vector<std::string> env_storage;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry = *e;
    bool overridden = false;
    for (const auto& [k, v] : spec.env) {
      if (entry.rfind(k + "=", 0) == 0) overridden = true;
    }
    if (!overridden) env_storage.push_back(entry);
  }
  for (const auto& [k, v] : spec.env) env_storage.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& s : env_storage) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_storage = spec.argv;
  std::vector<char*> argv;
  for (auto& s : argv_storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  int rc = ::posix_spawn(&r.pid, argv[0], nullptr, nullptr, argv.data(), envp.data());
  if (rc != 0) {
    r.pid = -1;
    r.spawn_error = "cannot start " + spec.argv.front() + ": " + std::strerror(rc);
  }
  return r;
}

ChildResult finish(const Running& r, int status) {
  ChildResult out;
  out.target = r.spec->target;
  out.child_target_id = r.spec->child_target_id;
  out.seconds = std::chrono::duration<double>(Clock::now() - r.start).count();
  if (!r.spawn_error.empty()) {
    out.failure = r.spawn_error;
    out.exit_code = 127;
    return out;
  }
  if (WIFEXITED(status)) {
    out.exit_code = WEXITSTATUS(status);
    if (out.exit_code != 0) out.failure = "child exited with code " + std::to_string(out.exit_code);
  } else if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    out.exit_code = 128 + sig;
    out.failure = std::string("child killed by signal ") + std::to_string(sig) + " (" +
                  (::strsignal(sig) ? ::strsignal(sig) : "?") + ")";
  }
  if (r.timed_out) {
    out.failure = "child timed out after " + std::to_string(static_cast<int>(out.seconds)) +
                  " s and was stopped";
  }
  // Keep whatever the child checkpointed, even after a crash or a timeout.
  std::error_code ec;
  if (std::filesystem::exists(r.spec->report, ec)) {
    try {
      Report child = load_report(r.spec->report);
      out.records = std::move(child.records);
      out.warnings = std::move(child.warnings);
    } catch (const std::exception& e) {
      if (out.failure.empty()) out.failure = std::string("child report unreadable: ") + e.what();
    }
  } else if (out.failure.empty()) {
    out.failure = "child wrote no report";
  }
  return out;
}

std::vector<ChildResult> wait_all(std::vector<Running> running, double timeout_seconds) {
  std::vector<ChildResult> results(running.size());
  std::vector<bool> done(running.size(), false);
  std::size_t left = running.size();
  for (std::size_t i = 0; i < running.size(); ++i) {
    if (running[i].pid < 0) {
      results[i] = finish(running[i], 0);
      done[i] = true;
      --left;
    }
  }
  while (left > 0) {
    for (std::size_t i = 0; i < running.size(); ++i) {
      if (done[i]) continue;
      Running& r = running[i];
      int status = 0;
      pid_t got = ::waitpid(r.pid, &status, WNOHANG);
      if (got == r.pid) {
        results[i] = finish(r, status);
        done[i] = true;
        --left;
        continue;
      }
      double age = std::chrono::duration<double>(Clock::now() - r.start).count();
      if (!r.term_sent && age > timeout_seconds) {
        ::kill(r.pid, SIGTERM);
        r.term_sent = true;
        r.timed_out = true;
        r.term_at = Clock::now();
      } else if (r.term_sent &&
                 std::chrono::duration<double>(Clock::now() - r.term_at).count() > 5) {
        ::kill(r.pid, SIGKILL);
      }
    }
    if (left > 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return results;
}

std::string replace_segment(std::string id, const std::string& from, const std::string& to) {
  const std::string needle = "/" + from + "/";
  auto pos = id.find(needle);
  if (pos != std::string::npos) id.replace(pos, needle.size(), "/" + to + "/");
  return id;
}

}  // namespace

std::vector<ChildResult> run_children(const std::vector<ChildSpec>& children, bool concurrent,
                                      double timeout_seconds) {
  std::vector<ChildResult> results;
  if (concurrent) {
    std::vector<Running> running;
    for (const auto& c : children) running.push_back(spawn(c));
    return wait_all(std::move(running), timeout_seconds);
  }
  for (const auto& c : children) {
    auto one = wait_all({spawn(c)}, timeout_seconds);
    results.push_back(std::move(one.front()));
  }
  return results;
}

void merge_child_result(Report& parent, const ChildResult& result, const std::string& mode) {
  if (parent.find_target(result.target.id) == nullptr) parent.targets.push_back(result.target);
  for (Record r : result.records) {
    // Inside the child the slice is its only CUDA device: rename that target to the slice's id.
    if (r.target == result.child_target_id) {
      r.id = replace_segment(r.id, result.child_target_id, result.target.id) + "/mode=" + mode;
      r.target = result.target.id;
    } else if (r.target != result.target.id) {
      continue;  // the child's CPU baseline is not the slice's
    }
    r.mode = mode;
    if (parent.find_record(r.id) == nullptr) parent.records.push_back(std::move(r));
  }
  if (result.failure.empty() && result.records.empty()) {
    std::string why =
        result.warnings.empty() ? "" : " (the child said: " + result.warnings.front() + ")";
    parent.warnings.push_back("MIG slice " + result.target.id + " (" + mode +
                              "): the child measured nothing" + why);
  }
  if (!result.failure.empty()) {
    parent.warnings.push_back("MIG slice " + result.target.id + " (" + mode +
                              "): " + result.failure + "; " +
                              std::to_string(result.records.size()) + " finished records kept");
  }
}

}  // namespace gpusizer::bench
