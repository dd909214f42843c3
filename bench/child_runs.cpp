#include "gpusizer/bench/child_runs.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>

#include "gpusizer/clock.hpp"
#include "gpusizer/exit_codes.hpp"
#include "gpusizer/report_io.hpp"

extern char** environ;

namespace gpusizer::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Where a child finds the barrier's descriptors (dup2'ed there at spawn).
constexpr int kChildReadyFd = 3;
constexpr int kChildGoFd = 4;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

// Moves a close-on-exec descriptor above the numbers children receive (so a dup2 onto 3 or 4
// never has itself as the source, which would keep close-on-exec).
Fd above_child_fds(int fd) {
  const int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
  ::close(fd);
  return Fd(high);
}

// The parent's side: one go pipe shared by all children (closing its write end releases them
// together) and one ready socket pair per child (a socket, so a child whose parent is gone gets
// EPIPE rather than SIGPIPE).
struct BarrierPipes {
  Fd go_read, go_write;
  std::vector<Fd> ready_parent, ready_child;

  static std::optional<BarrierPipes> create(std::size_t children, std::string& why_not) {
    BarrierPipes b;
    int go[2];
    if (::pipe2(go, O_CLOEXEC) != 0) {
      why_not = std::string("pipe: ") + std::strerror(errno);
      return std::nullopt;
    }
    b.go_read = above_child_fds(go[0]);
    b.go_write = above_child_fds(go[1]);
    for (std::size_t i = 0; i < children; ++i) {
      int sv[2];
      if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        why_not = std::string("socketpair: ") + std::strerror(errno);
        return std::nullopt;
      }
      b.ready_parent.push_back(above_child_fds(sv[0]));
      b.ready_child.push_back(above_child_fds(sv[1]));
    }
    for (const auto* fds : {&b.ready_parent, &b.ready_child}) {
      for (const Fd& fd : *fds) {
        if (fd.get() < 0) {
          why_not = std::string("fcntl(F_DUPFD_CLOEXEC): ") + std::strerror(errno);
          return std::nullopt;
        }
      }
    }
    if (b.go_read.get() < 0 || b.go_write.get() < 0) {
      why_not = std::string("fcntl(F_DUPFD_CLOEXEC): ") + std::strerror(errno);
      return std::nullopt;
    }
    return b;
  }
};

// The parent's descriptors a child receives as kChildReadyFd and kChildGoFd (-1: no barrier).
struct ChildFds {
  int ready = -1;
  int go = -1;
};

struct Running {
  const ChildSpec* spec = nullptr;
  pid_t pid = -1;
  Clock::time_point start;
  bool term_sent = false;
  bool timed_out = false;
  bool stop_forwarded = false;  // the parent's SIGTERM/SIGINT was passed on
  Clock::time_point term_at;
  std::string spawn_error;
};

Running spawn(const ChildSpec& spec, const ChildFds& barrier = {}) {
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
  const bool with_barrier = barrier.ready >= 0 && barrier.go >= 0;
  std::erase_if(env_storage, [](const std::string& e) {
    return e.rfind(std::string(kStartBarrierEnv) + "=", 0) == 0;
  });
  if (with_barrier) {
    env_storage.push_back(std::string(kStartBarrierEnv) + "=" + std::to_string(kChildReadyFd) +
                          "," + std::to_string(kChildGoFd));
  }
  std::vector<char*> envp;
  for (auto& s : env_storage) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_storage = spec.argv;
  std::vector<char*> argv;
  for (auto& s : argv_storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  if (with_barrier) {
    ::posix_spawn_file_actions_adddup2(&actions, barrier.ready, kChildReadyFd);
    ::posix_spawn_file_actions_adddup2(&actions, barrier.go, kChildGoFd);
  }
  int rc = ::posix_spawn(&r.pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  ::posix_spawn_file_actions_destroy(&actions);
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
    out.stopped = out.exit_code == kExitStopped;
    if (out.exit_code != kExitOk && out.exit_code != kExitStopped && out.exit_code != kExitEmpty)
      out.failure = "child exited with code " + std::to_string(out.exit_code);
  } else if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    out.exit_code = 128 + sig;
    if (r.stop_forwarded && (sig == SIGTERM || sig == SIGINT)) {
      out.stopped = true;  // gone by the signal the parent passed on, before its handler was set
    } else {
      out.failure = std::string("child killed by signal ") + std::to_string(sig) + " (" +
                    (::strsignal(sig) ? ::strsignal(sig) : "?") + ")";
    }
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
      out.not_run = std::move(child.not_run);
      out.child_targets = std::move(child.targets);
      out.warnings = std::move(child.warnings);
    } catch (const std::exception& e) {
      if (out.failure.empty()) out.failure = std::string("child report unreadable: ") + e.what();
    }
  } else if (out.failure.empty() && !out.stopped) {
    out.failure = "child wrote no report";
  }
  return out;
}

bool stop_now(const std::atomic<bool>* stop_requested) {
  return stop_requested != nullptr && stop_requested->load();
}

std::vector<ChildResult> wait_all(std::vector<Running> running, double timeout_seconds,
                                  const std::atomic<bool>* stop_requested) {
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
      if (!r.term_sent && stop_now(stop_requested)) {
        ::kill(r.pid, SIGTERM);  // the child stops after its current sample and writes its report
        r.term_sent = true;
        r.stop_forwarded = true;
        r.term_at = Clock::now();
      } else if (!r.term_sent && age > timeout_seconds) {
        ::kill(r.pid, SIGTERM);
        r.term_sent = true;
        r.timed_out = true;
        r.term_at = Clock::now();
      } else if (r.term_sent && std::chrono::duration<double>(Clock::now() - r.term_at).count() >
                                    (r.stop_forwarded ? kChildStopGraceSeconds : 5)) {
        ::kill(r.pid, SIGKILL);
      }
    }
    if (left > 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return results;
}

// Waits until every child has signalled ready or is gone (exited, never started), at most
// `timeout_seconds` after `first_start`; then releases them all by closing the go pipe.
std::vector<StartBarrierResult> wait_and_release(BarrierPipes& pipes, std::size_t children,
                                                 Clock::time_point first_start,
                                                 double timeout_seconds,
                                                 const std::atomic<bool>* stop_requested) {
  std::vector<StartBarrierResult> out(children);
  std::vector<bool> settled(children, false);
  std::size_t open = children;
  std::size_t ready = 0;
  bool timed_out = false;
  while (open > 0) {
    const double left = timeout_seconds - seconds_since(first_start);
    if (left <= 0 || stop_now(stop_requested)) {
      timed_out = true;
      break;
    }
    std::vector<pollfd> fds;
    std::vector<std::size_t> index;
    for (std::size_t i = 0; i < children; ++i) {
      if (settled[i]) continue;
      fds.push_back({pipes.ready_parent[i].get(), POLLIN, 0});
      index.push_back(i);
    }
    const int n = ::poll(fds.data(), fds.size(), static_cast<int>(std::min(left, 0.1) * 1000) + 1);
    if (n < 0 && errno != EINTR) break;  // cannot wait: release now
    for (std::size_t k = 0; n > 0 && k < fds.size(); ++k) {
      if (fds[k].revents == 0) continue;
      const std::size_t i = index[k];
      char byte = 0;
      const ssize_t got = ::recv(fds[k].fd, &byte, 1, MSG_DONTWAIT);
      if (got < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      settled[i] = true;
      --open;
      if (got == 1) {  // else: the child closed its end without signalling (exited, exec failed)
        out[i].reached = true;
        out[i].ready_after_seconds = seconds_since(first_start);
        out[i].ready_at = now_iso8601_utc();
        ++ready;
      }
    }
  }
  // Stamped just before the release, so no child's first record can predate it.
  const double released_after = seconds_since(first_start);
  const std::string released_at = now_iso8601_utc();
  pipes.go_write.reset();  // release: every child blocked on the go pipe reads end-of-file
  for (auto& r : out) {
    r.released_after_seconds = released_after;
    r.released_at = released_at;
    r.children = children;
    r.children_ready = ready;
    r.timed_out = timed_out;
  }
  return out;
}

}  // namespace

std::vector<ChildResult> run_children(const std::vector<ChildSpec>& children, bool concurrent,
                                      double timeout_seconds, double barrier_timeout_seconds,
                                      const std::atomic<bool>* stop_requested) {
  std::vector<ChildResult> results;
  auto not_started = [](const ChildSpec& c) {
    ChildResult skipped;
    skipped.target = c.target;
    skipped.child_target_id = c.child_target_id;
    skipped.not_started = true;
    skipped.not_run_reason = "the run was stopped before this slice's turn";
    return skipped;
  };
  if (concurrent && stop_now(stop_requested)) {
    for (const auto& c : children) results.push_back(not_started(c));
    return results;
  }
  if (concurrent) {
    std::string why_not;
    auto pipes = BarrierPipes::create(children.size(), why_not);
    std::vector<Running> running;
    const auto first_start = Clock::now();
    for (std::size_t i = 0; i < children.size(); ++i) {
      ChildFds fds;
      if (pipes) fds = {pipes->ready_child[i].get(), pipes->go_read.get()};
      running.push_back(spawn(children[i], fds));
    }
    std::vector<StartBarrierResult> barrier(children.size());
    if (pipes) {
      // Only the children hold their ends now: a child that exits shows as end-of-file.
      for (Fd& fd : pipes->ready_child) fd.reset();
      pipes->go_read.reset();
      barrier =
          wait_and_release(*pipes, children.size(), first_start,
                           std::min(barrier_timeout_seconds, timeout_seconds), stop_requested);
    } else {
      for (auto& b : barrier) b.setup_error = "start barrier not set up (" + why_not + ")";
    }
    results = wait_all(std::move(running), timeout_seconds, stop_requested);
    for (std::size_t i = 0; i < results.size(); ++i) results[i].start_barrier = barrier[i];
    return results;
  }
  for (const auto& c : children) {
    if (stop_now(stop_requested)) {
      results.push_back(not_started(c));
      continue;
    }
    auto one = wait_all({spawn(c)}, timeout_seconds, stop_requested);
    results.push_back(std::move(one.front()));
  }
  return results;
}

std::optional<double> wait_at_start_barrier() {
  const char* spec = std::getenv(kStartBarrierEnv);
  int ready_fd = -1, go_fd = -1;
  if (spec == nullptr || std::sscanf(spec, "%d,%d", &ready_fd, &go_fd) != 2) return std::nullopt;
  // Only descriptors of the right kinds: never write into a file that happens to be open there.
  struct stat ready_st {
  }, go_st{};
  if (::fstat(ready_fd, &ready_st) != 0 || !S_ISSOCK(ready_st.st_mode) ||
      ::fstat(go_fd, &go_st) != 0 || !S_ISFIFO(go_st.st_mode)) {
    return std::nullopt;
  }
  const auto start = Clock::now();
  const char byte = 'R';
  ssize_t sent = 0;
  do {
    sent = ::send(ready_fd, &byte, 1, MSG_NOSIGNAL);
  } while (sent < 0 && errno == EINTR);
  ::close(ready_fd);
  char ignored = 0;
  ssize_t got = 0;
  do {
    got = ::read(go_fd, &ignored, 1);  // returns 0 (end of file) when the parent releases
  } while (got < 0 && errno == EINTR);
  ::close(go_fd);
  return seconds_since(start);
}

}  // namespace gpusizer::bench
