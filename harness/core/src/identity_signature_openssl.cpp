// check_identity_signature with OpenSSL (libcrypto): PKCS7_verify over the stored document, the
// signer looked up only among the given certificate (PKCS7_NOINTERN), no chain check
// (PKCS7_NOVERIFY), as AWS documents with `openssl smime -verify -noverify -certfile`.
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>

#include <memory>

#include "gpusizer/instance_identity.hpp"

namespace gpusizer {
namespace {

template <auto Free>
struct Deleter {
  template <typename T>
  void operator()(T* p) const {
    Free(p);
  }
};
using Bio = std::unique_ptr<BIO, Deleter<BIO_free_all>>;
using Pkcs7 = std::unique_ptr<PKCS7, Deleter<PKCS7_free>>;
using X509Ptr = std::unique_ptr<X509, Deleter<X509_free>>;
struct StackFree {
  void operator()(STACK_OF(X509) * s) const { sk_X509_free(s); }
};
using X509Stack = std::unique_ptr<STACK_OF(X509), StackFree>;

// OpenSSL's queued errors as one line (and the queue emptied).
std::string openssl_errors() {
  std::string out;
  while (unsigned long e = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    if (!out.empty()) out += "; ";
    out += buf;
  }
  return out.empty() ? "no reason given" : out;
}

Bio memory_bio(const std::string& bytes) {
  return Bio(BIO_new_mem_buf(bytes.data(), static_cast<int>(bytes.size())));
}

// IMDS serves the base64 body only; AWS's procedure adds the PEM armour, and so do we.
std::string pem_armoured(const std::string& pkcs7) {
  if (pkcs7.find("-----BEGIN PKCS7-----") != std::string::npos) return pkcs7;
  return "-----BEGIN PKCS7-----\n" + pkcs7 + "\n-----END PKCS7-----\n";
}

}  // namespace

SignatureCheck check_identity_signature(const InstanceIdentity& identity,
                                        const std::string& certificate_pem) {
  ERR_clear_error();
  SignatureCheck out;
  Bio cert_bio = memory_bio(certificate_pem);
  X509Ptr cert(cert_bio ? PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr) : nullptr);
  if (!cert) {
    out.outcome = SignatureOutcome::bad_certificate;
    out.detail = openssl_errors();
    return out;
  }
  const std::string armoured = pem_armoured(identity.pkcs7);
  Bio sig_bio = memory_bio(armoured);
  Pkcs7 p7(sig_bio ? PEM_read_bio_PKCS7(sig_bio.get(), nullptr, nullptr, nullptr) : nullptr);
  if (!p7 || !PKCS7_type_is_signed(p7.get())) {
    out.outcome = SignatureOutcome::unreadable;
    out.detail = p7 ? "not a PKCS7 signed-data structure" : openssl_errors();
    return out;
  }
  X509Stack signers(sk_X509_new_null());
  if (!signers || sk_X509_push(signers.get(), cert.get()) <= 0) {
    out.outcome = SignatureOutcome::unreadable;
    out.detail = "out of memory";
    return out;
  }
  Bio content = memory_bio(identity.document);
  const int ok = PKCS7_verify(p7.get(), signers.get(), nullptr, content.get(), nullptr,
                              PKCS7_NOVERIFY | PKCS7_NOINTERN | PKCS7_BINARY);
  if (ok == 1) {
    out.outcome = SignatureOutcome::verified;
  } else {
    out.outcome = SignatureOutcome::mismatch;
    out.detail = openssl_errors();
  }
  ERR_clear_error();
  return out;
}

}  // namespace gpusizer
