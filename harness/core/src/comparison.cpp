#include "gpusizer/comparison.hpp"

#include <algorithm>
#include <map>

#include "gpusizer/stats.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer {
namespace {

std::span<const double> samples_of(const Record& r) {
  if (!r.timing) return {};
  return r.timing->samples_seconds;
}

bool has_flag(const Record& r, const std::string& flag) {
  return std::find(r.flags.begin(), r.flags.end(), flag) != r.flags.end();
}

}  // namespace

bool NoiseTest::rough() const {
  return std::min(samples_first, samples) < kRecommendedSamples;
}

NoiseTest noise_test(const Record& first, const Record& later) {
  const std::span<const double> a = samples_of(first);
  const std::span<const double> b = samples_of(later);
  NoiseTest t;
  t.samples_first = a.size();
  t.samples = b.size();
  if (mann_whitney_min_p_value(a.size(), b.size()) >= kNoiseAlpha) return t;
  const MannWhitney m = mann_whitney_u(a, b);
  t.p_value = m.p_value;
  if (m.p_value >= kNoiseAlpha) {
    t.verdict = NoiseVerdict::same_within_noise;
  } else {
    // u_a counts the pairs where the first report's time is the larger: more than half of them,
    // and the later report is the faster.
    t.verdict = m.u_a > m.u_b ? NoiseVerdict::faster : NoiseVerdict::slower;
  }
  return t;
}

std::string verdict_text(const NoiseTest& test) {
  const auto p = [&] {
    const double v = test.p_value.value_or(1);
    return v < 0.001 ? std::string("p < 0.001") : "p = " + fixed(v, 3);
  };
  switch (test.verdict) {
    case NoiseVerdict::same_within_noise:
      return "same within noise";
    case NoiseVerdict::faster:
      return "faster (" + p() + ")";
    case NoiseVerdict::slower:
      return "slower (" + p() + ")";
    case NoiseVerdict::too_few_samples:
      break;
  }
  return "too few samples";
}

std::string report_machine_name(const Report& report) {
  if (report.host.instance_type && !report.host.instance_type->value.empty())
    return report.host.instance_type->value;
  return report.host.hostname;
}

std::vector<std::string> report_short_names(const std::vector<NamedReport>& reports) {
  std::vector<std::string> names;
  std::map<std::string, int> count;
  for (const auto& nr : reports) {
    std::string name = report_machine_name(nr.report);
    if (name.empty()) name = nr.name;
    ++count[name];
    names.push_back(name);
  }
  std::map<std::string, int> seen;
  for (auto& name : names) {
    if (count[name] > 1) name += "#" + std::to_string(++seen[name]);
  }
  return names;
}

std::vector<ComparisonRow> compare_reports(const std::vector<NamedReport>& reports) {
  std::vector<ComparisonRow> rows;
  std::map<std::string, std::size_t> row_of;
  for (const auto& nr : reports) {
    for (const auto& r : nr.report.records) {
      if (row_of.emplace(r.id, rows.size()).second) rows.push_back({&r, "", {}, false});
    }
  }
  for (auto& row : rows) {
    for (std::size_t i = 0; i < reports.size(); ++i) {
      ComparedValue v;
      v.record = reports[i].report.find_record(row.first->id);
      const Record* r = v.record;
      if (r && (r->status == RecordStatus::ok || r->status == RecordStatus::failed) &&
          !r->metrics.empty()) {
        v.value = r->metrics.front().value;
        row.unit = r->metrics.front().unit;
        row.noisy = row.noisy || has_flag(*r, "high_variance");
      }
      const ComparedValue* base = i > 0 ? &row.values.front() : nullptr;
      if (base && base->value && v.value) {
        if (*base->value > 0) v.ratio_to_first = *v.value / *base->value;
        v.noise = noise_test(*base->record, *r);
        const bool differs =
            v.noise->verdict == NoiseVerdict::faster || v.noise->verdict == NoiseVerdict::slower;
        const bool same_machine =
            report_machine_name(reports[0].report) == report_machine_name(reports[i].report);
        row.noisy = row.noisy || (differs && same_machine);
      }
      row.values.push_back(v);
    }
  }
  return rows;
}

}  // namespace gpusizer
