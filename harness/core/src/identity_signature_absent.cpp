// check_identity_signature when gpusizer was built without OpenSSL (libssl-dev absent, or
// GPUSIZER_WITH_OPENSSL=OFF): the record chain and plausibility are still checked; this says why
// the signature is not.
#include "gpusizer/instance_identity.hpp"

namespace gpusizer {

SignatureCheck check_identity_signature(const InstanceIdentity&, const std::string&) {
  return {SignatureOutcome::not_built,
          "signature checking was not built (gpusizer was built without OpenSSL: install "
          "libssl-dev and rebuild)"};
}

}  // namespace gpusizer
