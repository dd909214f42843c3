#include "gpusizer/imds.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "gpusizer/clock.hpp"

namespace gpusizer {
namespace {

struct Endpoint {
  std::string host = "169.254.169.254";
  int port = 80;
};

Endpoint endpoint() {
  Endpoint e;
  if (const char* env = std::getenv("GPUSIZER_IMDS_ENDPOINT")) {
    std::string s = env;
    auto colon = s.rfind(':');
    if (colon != std::string::npos) {
      e.host = s.substr(0, colon);
      e.port = std::atoi(s.c_str() + colon + 1);
    } else {
      e.host = s;
    }
  }
  return e;
}

class Socket {
 public:
  explicit Socket(int fd) : fd_(fd) {}
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

// One HTTP/1.1 request with Connection: close; returns the status code and body, or an error.
struct HttpResult {
  int status = 0;
  std::string body;
  std::string error;
};

using Clock = std::chrono::steady_clock;

// Milliseconds left before `deadline` (0 when past): every wait of one query shares it, so a
// server that answers a byte at a time cannot stretch the query past its bound.
int ms_left(Clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::max<long long>(0, left));
}

HttpResult http(const Endpoint& ep, const std::string& request, Clock::time_point deadline) {
  HttpResult out;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(ep.port));
  if (::inet_pton(AF_INET, ep.host.c_str(), &addr.sin_addr) != 1) {
    out.error = "bad metadata endpoint address " + ep.host;
    return out;
  }
  Socket sock(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (sock.fd() < 0) {
    out.error = std::string("socket: ") + std::strerror(errno);
    return out;
  }
  if (::connect(sock.fd(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 &&
      errno != EINPROGRESS) {
    out.error = std::string("connect: ") + std::strerror(errno);
    return out;
  }
  pollfd pfd{sock.fd(), POLLOUT, 0};
  if (::poll(&pfd, 1, ms_left(deadline)) != 1) {
    out.error = "connect timed out";
    return out;
  }
  int so_error = 0;
  socklen_t len = sizeof so_error;
  ::getsockopt(sock.fd(), SOL_SOCKET, SO_ERROR, &so_error, &len);
  if (so_error != 0) {
    out.error = std::string("connect: ") + std::strerror(so_error);
    return out;
  }
  std::size_t sent = 0;
  while (sent < request.size()) {
    pfd = {sock.fd(), POLLOUT, 0};
    if (::poll(&pfd, 1, ms_left(deadline)) != 1) {
      out.error = "send timed out";
      return out;
    }
    ssize_t n = ::send(sock.fd(), request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno != EAGAIN && errno != EINTR) {
      out.error = std::string("send: ") + std::strerror(errno);
      return out;
    }
    if (n > 0) sent += static_cast<std::size_t>(n);
  }
  std::string response;
  char buf[4096];
  while (response.size() < 65536) {
    pfd = {sock.fd(), POLLIN, 0};
    if (::poll(&pfd, 1, ms_left(deadline)) != 1) {
      out.error = "no complete answer in time";
      return out;
    }
    ssize_t n = ::recv(sock.fd(), buf, sizeof buf, 0);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      out.error = std::string("recv: ") + std::strerror(errno);
      return out;
    }
    response.append(buf, static_cast<std::size_t>(n));
  }
  // "HTTP/1.1 200 OK\r\n...\r\n\r\nbody"
  auto sp = response.find(' ');
  auto head_end = response.find("\r\n\r\n");
  if (response.rfind("HTTP/", 0) != 0 || sp == std::string::npos || head_end == std::string::npos) {
    out.error = "not an HTTP answer";
    return out;
  }
  out.status = std::atoi(response.c_str() + sp + 1);
  out.body = response.substr(head_end + 4);
  return out;
}

}  // namespace

ImdsResult query_imds_instance_type(double timeout_seconds) {
  ImdsResult result;
  const Endpoint ep = endpoint();
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(std::max(0.0, timeout_seconds)));
  const std::string host = "Host: " + ep.host + "\r\n";
  HttpResult token = http(ep,
                          "PUT /latest/api/token HTTP/1.1\r\n" + host +
                              "X-aws-ec2-metadata-token-ttl-seconds: 60\r\nContent-Length: 0\r\n"
                              "Connection: close\r\n\r\n",
                          deadline);
  if (!token.error.empty() || token.status != 200 || token.body.empty()) {
    result.error = "IMDSv2 token: " +
                   (token.error.empty() ? "HTTP " + std::to_string(token.status) : token.error);
    return result;
  }
  auto get = [&](const std::string& path) {
    return http(ep,
                "GET " + path + " HTTP/1.1\r\n" + host + "X-aws-ec2-metadata-token: " + token.body +
                    "\r\nConnection: close\r\n\r\n",
                deadline);
  };
  HttpResult type = get("/latest/meta-data/instance-type");
  if (!type.error.empty() || type.status != 200) {
    result.error = "IMDSv2 instance-type: " +
                   (type.error.empty() ? "HTTP " + std::to_string(type.status) : type.error);
    return result;
  }
  std::string value = type.body;
  while (!value.empty() && (value.back() == '\n' || value.back() == '\r' || value.back() == ' ')) {
    value.pop_back();
  }
  if (value.empty() || value.find_first_of(" \t\n/") != std::string::npos) {
    result.error = "IMDSv2 instance-type: unexpected answer";
    return result;
  }
  result.instance_type = InstanceType{value, "EC2 instance metadata (IMDSv2, --imds)"};
  // The signed identity, byte for byte as served: the signature is over these exact bytes.
  InstanceIdentity identity;
  for (auto [path, into] :
       {std::pair{"/latest/dynamic/instance-identity/document", &identity.document},
        std::pair{"/latest/dynamic/instance-identity/pkcs7", &identity.pkcs7}}) {
    HttpResult part = get(path);
    if (!part.error.empty() || part.status != 200 || part.body.empty()) {
      result.identity_error =
          std::string(path) + ": " +
          (part.error.empty() ? "HTTP " + std::to_string(part.status) : part.error);
      return result;
    }
    *into = part.body;
  }
  identity.retrieved_at = now_iso8601_utc();
  result.instance_type->identity = std::move(identity);
  return result;
}

}  // namespace gpusizer
