// gpusizer verify report.json...: one line per finding (report_verify.hpp), then the verdict;
// exit 0 only when every report verifies, else kExitNotVerified.
#include <iostream>

#include "commands.hpp"
#include "gpusizer/exit_codes.hpp"
#include "gpusizer/input_file.hpp"
#include "gpusizer/report_verify.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer::cli {

void register_verify(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand(
      "verify",
      "Check that reports are as gpusizer wrote them (record chain), come from the EC2 instance "
      "they name (signed identity, `run --imds`) and hold plausible figures");
  auto files = std::make_shared<std::vector<std::string>>();
  auto certificates = std::make_shared<std::string>();
  cmd->add_option("reports", *files, "Report files")->required();
  cmd->add_option("--certificates", *certificates,
                  "AWS public certificates by region (default: "
                  "$GPUSIZER_DATA_DIR/aws-identity-certificates.json, else the shipped data/)");
  cmd->callback([&action, files, certificates] {
    action = [files, certificates] {
      const CertificateSource certs =
          certificate_source(certificates->empty() ? default_identity_certificates_file()
                                                   : std::filesystem::path(*certificates));
      int not_verified = 0;
      for (const auto& f : *files) {
        const ReportVerification v =
            verify_report_text(read_input_file(f, input_kinds::report), f, certs);
        for (const auto& finding : v.findings) {
          std::cout << escape_control(f) << ": " << (finding.holds ? "ok: " : "FAILED: ")
                    << escape_control(finding.text) << "\n";
        }
        if (v.verified()) {
          std::cout << escape_control(f) << ": verified\n";
        } else {
          ++not_verified;
          std::cout << escape_control(f) << ": NOT verified\n";
        }
      }
      return not_verified == 0 ? kExitOk : kExitNotVerified;
    };
  });
}

}  // namespace gpusizer::cli
