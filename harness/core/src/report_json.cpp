// JSON conversion of the report model. Field names match reports/schema/report.schema.json.
#include <algorithm>
#include <cmath>

#include "gpusizer/input_file.hpp"
#include "gpusizer/plausibility.hpp"
#include "gpusizer/record_chain.hpp"
#include "gpusizer/report_io.hpp"
#include "gpusizer/text.hpp"

namespace gpusizer {
namespace {

using nlohmann::json;

template <typename T>
void put_optional(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

std::optional<double> opt_number(const JsonInput& in, std::string_view key) {
  if (auto v = in.find(key)) return v->number();
  return std::nullopt;
}

// A record's "target": its target ids joined by '+' (join_target_ids), split here, once.
std::vector<std::string> target_ids(const JsonInput& in) {
  const std::string joined = in.non_empty_string();
  std::vector<std::string> ids;
  std::size_t start = 0;
  while (true) {
    const std::size_t plus = joined.find('+', start);
    ids.push_back(joined.substr(start, plus == std::string::npos ? plus : plus - start));
    if (ids.back().empty()) {
      in.fail("expected target ids joined by '+', got " + describe_json(in.raw()) +
              " (an empty id)");
    }
    if (plus == std::string::npos) return ids;
    start = plus + 1;
  }
}

std::vector<std::string> string_list(const JsonInput& in) {
  std::vector<std::string> out;
  for (const auto& item : in.items()) out.push_back(item.string());
  return out;
}

}  // namespace

const Metric* Record::metric(const std::string& metric_name) const {
  for (const auto& m : metrics) {
    if (m.name == metric_name) return &m;
  }
  return nullptr;
}

std::string join_target_ids(const std::vector<std::string>& ids) {
  return join(ids, "+");
}

const Record* Report::find_record(const std::string& record_id) const {
  for (const auto& r : records) {
    if (r.id == record_id) return &r;
  }
  return nullptr;
}

const Target* Report::find_target(const std::string& target_id) const {
  for (const auto& t : targets) {
    if (t.id == target_id) return &t;
  }
  return nullptr;
}

const Host& Report::host_of(const Target& target) const {
  if (target.host) {
    for (const auto& h : hosts) {
      if (h.id == *target.host) return h;
    }
  }
  return host;
}

json to_json(const Summary& s) {
  return json{{"count", s.count}, {"mean", s.mean},     {"median", s.median}, {"min", s.min},
              {"max", s.max},     {"stddev", s.stddev}, {"cv", s.cv},         {"q1", s.q1},
              {"q3", s.q3},       {"iqr", s.iqr}};
}

Summary summary_from_json(const JsonInput& in) {
  in.allow_only({"count", "mean", "median", "min", "max", "stddev", "cv", "q1", "q3", "iqr"});
  Summary s;
  s.count = in.at("count").count();
  s.mean = in.at("mean").non_negative();
  s.median = in.at("median").non_negative();
  s.min = in.at("min").non_negative();
  s.max = in.at("max").non_negative();
  s.stddev = in.at("stddev").non_negative();
  s.cv = in.at("cv").non_negative();
  s.q1 = in.at("q1").non_negative();
  s.q3 = in.at("q3").non_negative();
  s.iqr = in.at("iqr").non_negative();
  return s;
}

json to_json(const TelemetryWindow& w) {
  json j{{"source", w.source}, {"scope", w.scope}};
  if (!w.unavailable_reason.empty()) j["unavailable_reason"] = w.unavailable_reason;
  j["duration_seconds"] = w.duration_seconds;
  j["sample_count"] = w.sample_count;
  j["sample_period_seconds"] = w.sample_period_seconds;
  put_optional(j, "energy_joules", w.energy_joules);
  if (!w.energy_method.empty()) j["energy_method"] = w.energy_method;
  put_optional(j, "energy_integrated_joules", w.energy_integrated_joules);
  put_optional(j, "energy_counter_updates", w.energy_counter_updates);
  if (w.energy_counter_disagrees) j["energy_counter_disagrees"] = true;
  if (!w.power_field.empty()) j["power_field"] = w.power_field;
  put_optional(j, "power_mean_watts", w.power_mean_watts);
  put_optional(j, "power_peak_watts", w.power_peak_watts);
  put_optional(j, "power_p5_watts", w.power_p5_watts);
  put_optional(j, "power_p95_watts", w.power_p95_watts);
  put_optional(j, "sm_clock_mean_mhz", w.sm_clock_mean_mhz);
  put_optional(j, "sm_clock_default_mhz", w.sm_clock_default_mhz);
  if (!w.sm_clock_default_source.empty()) j["sm_clock_default_source"] = w.sm_clock_default_source;
  put_optional(j, "sm_clock_ratio", w.sm_clock_ratio);
  put_optional(j, "busy_sample_count", w.busy_sample_count);
  put_optional(j, "sm_clock_busy_mean_mhz", w.sm_clock_busy_mean_mhz);
  put_optional(j, "memory_clock_mean_mhz", w.memory_clock_mean_mhz);
  put_optional(j, "gpu_utilization_mean_percent", w.gpu_utilization_mean_percent);
  put_optional(j, "memory_utilization_mean_percent", w.memory_utilization_mean_percent);
  put_optional(j, "temperature_max_celsius", w.temperature_max_celsius);
  j["throttle_reasons"] = w.throttle_reasons;
  if (!w.throttle_reason_shares.empty()) j["throttle_reason_shares"] = w.throttle_reason_shares;
  j["throttled"] = w.throttled;
  j["power_capped"] = w.power_capped;
  put_optional(j, "ecc_corrected_delta", w.ecc_corrected_delta);
  put_optional(j, "ecc_uncorrected_delta", w.ecc_uncorrected_delta);
  j["ecc_errors_during_run"] = w.ecc_errors_during_run;
  put_optional(j, "remapped_rows_corrected_delta", w.remapped_rows_corrected_delta);
  put_optional(j, "remapped_rows_uncorrected_delta", w.remapped_rows_uncorrected_delta);
  j["row_remap_pending"] = w.row_remap_pending;
  j["row_remap_failure"] = w.row_remap_failure;
  put_optional(j, "retired_pages_delta", w.retired_pages_delta);
  j["retired_pages_pending"] = w.retired_pages_pending;
  j["memory_errors_during_run"] = w.memory_errors_during_run;
  if (!w.attribution.empty()) j["attribution"] = w.attribution;
  if (w.transient_errors > 0) j["transient_errors"] = w.transient_errors;
  if (!w.notes.empty()) j["notes"] = w.notes;
  return j;
}

TelemetryWindow telemetry_from_json(const JsonInput& in) {
  in.allow_only({"source",
                 "scope",
                 "unavailable_reason",
                 "duration_seconds",
                 "sample_count",
                 "sample_period_seconds",
                 "energy_joules",
                 "energy_method",
                 "power_field",
                 "power_mean_watts",
                 "power_peak_watts",
                 "power_p5_watts",
                 "power_p95_watts",
                 "sm_clock_mean_mhz",
                 "sm_clock_default_mhz",
                 "sm_clock_ratio",
                 "memory_clock_mean_mhz",
                 "gpu_utilization_mean_percent",
                 "memory_utilization_mean_percent",
                 "temperature_max_celsius",
                 "throttle_reasons",
                 "throttled",
                 "ecc_corrected_delta",
                 "ecc_uncorrected_delta",
                 "ecc_errors_during_run",
                 "remapped_rows_corrected_delta",
                 "remapped_rows_uncorrected_delta",
                 "row_remap_pending",
                 "row_remap_failure",
                 "retired_pages_delta",
                 "retired_pages_pending",
                 "memory_errors_during_run",
                 "attribution",
                 "energy_integrated_joules",
                 "sm_clock_default_source",
                 "energy_counter_updates",
                 "energy_counter_disagrees",
                 "busy_sample_count",
                 "sm_clock_busy_mean_mhz",
                 "throttle_reason_shares",
                 "power_capped",
                 "transient_errors",
                 "notes"});
  TelemetryWindow w;
  w.source = in.at("source").enumerated<TelemetrySource>();
  w.scope = in.at("scope").string();
  w.unavailable_reason = in.optional_string("unavailable_reason").value_or("");
  w.duration_seconds = in.at("duration_seconds").non_negative();
  w.sample_count = in.at("sample_count").count();
  w.sample_period_seconds = in.at("sample_period_seconds").non_negative();
  w.energy_joules = in.optional_non_negative("energy_joules");
  w.energy_method = in.optional_string("energy_method").value_or("");
  w.energy_integrated_joules = in.optional_non_negative("energy_integrated_joules");
  if (auto v = in.find("energy_counter_updates")) w.energy_counter_updates = v->count();
  if (auto v = in.find("energy_counter_disagrees")) w.energy_counter_disagrees = v->boolean();
  w.power_field = in.optional_string("power_field").value_or("");
  w.power_mean_watts = in.optional_non_negative("power_mean_watts");
  w.power_peak_watts = in.optional_non_negative("power_peak_watts");
  w.power_p5_watts = in.optional_non_negative("power_p5_watts");
  w.power_p95_watts = in.optional_non_negative("power_p95_watts");
  w.sm_clock_mean_mhz = in.optional_non_negative("sm_clock_mean_mhz");
  w.sm_clock_default_mhz = in.optional_non_negative("sm_clock_default_mhz");
  w.sm_clock_default_source = in.optional_string("sm_clock_default_source").value_or("");
  w.sm_clock_ratio = in.optional_non_negative("sm_clock_ratio");
  if (auto v = in.find("busy_sample_count")) w.busy_sample_count = v->count();
  w.sm_clock_busy_mean_mhz = in.optional_non_negative("sm_clock_busy_mean_mhz");
  w.memory_clock_mean_mhz = in.optional_non_negative("memory_clock_mean_mhz");
  w.gpu_utilization_mean_percent = in.optional_non_negative("gpu_utilization_mean_percent");
  w.memory_utilization_mean_percent = in.optional_non_negative("memory_utilization_mean_percent");
  w.temperature_max_celsius = opt_number(in, "temperature_max_celsius");
  if (auto v = in.find("throttle_reasons")) w.throttle_reasons = string_list(*v);
  if (auto v = in.find("throttle_reason_shares")) {
    for (const auto& key : v->keys()) {
      const double share = v->at(key).non_negative();
      if (share > 1) v->at(key).fail("a share of samples, expected a number in [0, 1]");
      w.throttle_reason_shares[key] = share;
    }
  }
  if (auto v = in.find("throttled")) w.throttled = v->boolean();
  if (auto v = in.find("power_capped")) w.power_capped = v->boolean();
  if (auto v = in.find("ecc_corrected_delta")) w.ecc_corrected_delta = v->count();
  if (auto v = in.find("ecc_uncorrected_delta")) w.ecc_uncorrected_delta = v->count();
  if (auto v = in.find("ecc_errors_during_run")) w.ecc_errors_during_run = v->boolean();
  if (auto v = in.find("remapped_rows_corrected_delta"))
    w.remapped_rows_corrected_delta = v->count();
  if (auto v = in.find("remapped_rows_uncorrected_delta"))
    w.remapped_rows_uncorrected_delta = v->count();
  if (auto v = in.find("row_remap_pending")) w.row_remap_pending = v->boolean();
  if (auto v = in.find("row_remap_failure")) w.row_remap_failure = v->boolean();
  if (auto v = in.find("retired_pages_delta")) w.retired_pages_delta = v->count();
  if (auto v = in.find("retired_pages_pending")) w.retired_pages_pending = v->boolean();
  if (auto v = in.find("memory_errors_during_run")) w.memory_errors_during_run = v->boolean();
  w.attribution = in.optional_string("attribution").value_or("");
  if (auto v = in.find("transient_errors")) w.transient_errors = v->count();
  if (auto v = in.find("notes")) w.notes = string_list(*v);
  return w;
}

json to_json(const Target& t) {
  json j{{"id", t.id}, {"kind", t.kind}, {"name", t.name}, {"memory_bytes", t.memory_bytes}};
  put_optional(j, "uuid", t.uuid);
  put_optional(j, "index", t.index);
  put_optional(j, "parent", t.parent);
  put_optional(j, "mig_profile", t.mig_profile);
  put_optional(j, "host", t.host);
  j["attributes"] = t.attributes;
  return j;
}

Target target_from_json(const JsonInput& in) {
  in.allow_only({"id", "kind", "name", "memory_bytes", "uuid", "index", "parent", "mig_profile",
                 "host", "attributes"});
  Target t;
  t.id = in.at("id").non_empty_string();
  t.kind = in.at("kind").enumerated<TargetKind>();
  t.name = in.at("name").string();
  t.memory_bytes = in.at("memory_bytes").count();
  t.uuid = in.optional_string("uuid");
  if (auto v = in.find("index")) t.index = static_cast<int>(v->count());
  t.parent = in.optional_string("parent");
  t.mig_profile = in.optional_string("mig_profile");
  t.host = in.optional_string("host");
  if (t.kind == TargetKind::mig && (!t.parent || !t.mig_profile)) {
    in.fail("a target of kind \"mig\" needs \"parent\" and \"mig_profile\"");
  }
  if (auto v = in.find("attributes")) {
    if (!v->is_object()) v->fail("expected an object, got " + describe_json(v->raw()));
    t.attributes = v->raw();
  }
  return t;
}

json to_json(const Record& r) {
  json j{{"id", r.id},
         {"family", r.family},
         {"operation", r.operation},
         {"target", join_target_ids(r.targets)},
         {"status", r.status},
         {"parameters", r.parameters}};
  if (!r.reason.empty()) j["reason"] = r.reason;
  json metrics = json::array();
  for (const auto& m : r.metrics) {
    metrics.push_back(
        {{"name", m.name}, {"value", m.value}, {"unit", m.unit}, {"description", m.description}});
  }
  j["metrics"] = metrics;
  j["bytes_per_op"] = r.bytes_per_op;
  j["flops_per_op"] = r.flops_per_op;
  if (!r.work_rule.empty()) j["work_rule"] = r.work_rule;
  if (r.timing) {
    const auto& t = *r.timing;
    j["timing"] = {{"timer", t.timer},
                   {"mode", t.cache_mode},
                   {"ops_per_sample", t.ops_per_sample},
                   {"samples_seconds", t.samples_seconds},
                   {"seconds_per_op", to_json(t.seconds_per_op)},
                   {"measured_seconds", t.measured_seconds},
                   {"stop_reason", t.stop_reason}};
  }
  j["verification"] = {{"status", r.verification.status},
                       {"method", r.verification.method},
                       {"detail", r.verification.detail}};
  j["details"] = r.details;
  if (r.telemetry) j["telemetry"] = to_json(*r.telemetry);
  j["flags"] = r.flags;
  j["started_at"] = r.started_at;
  j["duration_seconds"] = r.duration_seconds;
  j["repetitions"] = r.repetitions;
  if (r.concurrency != Concurrency::not_stated) j["mode"] = r.concurrency;
  if (r.load_average)
    j["load_average"] = {{"start", r.load_average->start}, {"end", r.load_average->end}};
  return j;
}

Record record_from_json(const JsonInput& in) {
  in.allow_only({"id",          "family",     "operation",        "target",       "status",
                 "reason",      "parameters", "metrics",          "bytes_per_op", "flops_per_op",
                 "work_rule",   "timing",     "verification",     "details",      "telemetry",
                 "flags",       "started_at", "duration_seconds", "repetitions",  "mode",
                 "load_average"});
  Record r;
  r.id = in.at("id").non_empty_string();
  r.family = in.at("family").enumerated<Family>();
  r.operation = in.at("operation").non_empty_string();
  r.targets = target_ids(in.at("target"));
  r.status = in.at("status").enumerated<RecordStatus>();
  r.reason = in.optional_string("reason").value_or("");
  auto params = in.at("parameters");
  if (!params.is_object()) params.fail("expected an object, got " + describe_json(params.raw()));
  r.parameters = params.raw();
  for (const auto& m : in.at("metrics").items()) {
    m.allow_only({"name", "value", "unit", "description"});
    r.metrics.push_back(Metric{m.at("name").non_empty_string(), m.at("value").non_negative(),
                               m.at("unit").non_empty_string(), m.string_at("description")});
  }
  if (r.status == RecordStatus::ok && r.metrics.empty())
    in.at("metrics").fail("a record with status \"ok\" needs at least one metric");
  r.bytes_per_op = in.at("bytes_per_op").non_negative();
  r.flops_per_op = in.at("flops_per_op").non_negative();
  r.work_rule = in.optional_string("work_rule").value_or("");
  if (auto t = in.find("timing")) {
    t->allow_only({"timer", "mode", "ops_per_sample", "samples_seconds", "seconds_per_op",
                   "measured_seconds", "stop_reason"});
    Timing timing;
    timing.timer = t->at("timer").enumerated<Timer>();
    timing.cache_mode = t->at("mode").enumerated<CacheMode>();
    timing.ops_per_sample = t->at("ops_per_sample").count();
    for (const auto& s : t->at("samples_seconds").items()) {
      timing.samples_seconds.push_back(s.positive());
    }
    timing.seconds_per_op = summary_from_json(t->at("seconds_per_op"));
    timing.measured_seconds = t->at("measured_seconds").non_negative();
    timing.stop_reason = t->string_at("stop_reason");
    r.timing = std::move(timing);
  }
  auto v = in.at("verification");
  v.allow_only({"status", "method", "detail"});
  r.verification.status = v.at("status").enumerated<VerificationStatus>();
  r.verification.method = v.string_at("method");
  r.verification.detail = v.string_at("detail");
  if (auto d = in.find("details")) {
    for (const auto& key : d->keys()) r.details[key] = d->at(key).string();
  }
  if (auto t = in.find("telemetry")) r.telemetry = telemetry_from_json(*t);
  if (auto f = in.find("flags")) r.flags = string_list(*f);
  r.started_at = in.string_at("started_at");
  r.duration_seconds = in.at("duration_seconds").non_negative();
  if (auto rep = in.find("repetitions")) r.repetitions = static_cast<int>(rep->count());
  if (auto m = in.find("mode")) r.concurrency = m->enumerated<Concurrency>();
  if (auto load = in.find("load_average")) {
    load->allow_only({"start", "end"});
    r.load_average = LoadAverage{load->at("start").non_negative(), load->at("end").non_negative()};
  }
  return r;
}

json to_json(const Host& h) {
  json host = json::object();
  if (!h.id.empty()) host["id"] = h.id;
  host.update(json{{"hostname", h.hostname},
                   {"os", h.os},
                   {"kernel", h.kernel},
                   {"cpu_model", h.cpu_model},
                   {"logical_cpus", h.logical_cpus},
                   {"numa_nodes", h.numa_nodes},
                   {"memory_bytes", h.memory_bytes}});
  if (h.instance_type) {
    host["instance_type"] = {{"value", h.instance_type->value},
                             {"source", h.instance_type->source}};
    if (const auto& id = h.instance_type->identity) {
      host["instance_type"]["identity"] = {
          {"document", id->document}, {"pkcs7", id->pkcs7}, {"retrieved_at", id->retrieved_at}};
    }
  }
  if (!h.ranks.empty()) host["ranks"] = h.ranks;
  if (!h.source.empty()) host["source"] = h.source;
  return host;
}

Host host_from_json(const JsonInput& host) {
  host.allow_only({"id", "hostname", "os", "kernel", "cpu_model", "logical_cpus", "numa_nodes",
                   "memory_bytes", "instance_type", "ranks", "source"});
  Host h;
  h.id = host.optional_string("id").value_or("");
  h.hostname = host.string_at("hostname");
  h.os = host.string_at("os");
  h.kernel = host.string_at("kernel");
  h.cpu_model = host.string_at("cpu_model");
  h.logical_cpus = static_cast<int>(host.at("logical_cpus").count());
  h.numa_nodes = static_cast<int>(host.at("numa_nodes").count());
  h.memory_bytes = host.at("memory_bytes").count();
  if (auto it = host.find("instance_type")) {
    it->allow_only({"value", "source", "identity"});
    h.instance_type = InstanceType{it->at("value").non_empty_string(), it->string_at("source")};
    if (auto id = it->find("identity")) {
      id->allow_only({"document", "pkcs7", "retrieved_at"});
      h.instance_type->identity = InstanceIdentity{
          id->string_at("document"), id->string_at("pkcs7"), id->string_at("retrieved_at")};
    }
  }
  if (auto r = host.find("ranks")) {
    for (const auto& item : r->items()) h.ranks.push_back(static_cast<int>(item.count()));
  }
  h.source = host.optional_string("source").value_or("");
  return h;
}

json to_json(const Report& report) {
  json host = to_json(report.host);
  json targets = json::array();
  for (const auto& t : report.targets) targets.push_back(to_json(t));
  json records = json::array();
  for (const auto& r : report.records) records.push_back(to_json(r));
  json not_run = json::array();
  for (const auto& [id, why] : report.not_run) not_run.push_back({{"id", id}, {"reason", why}});
  json j{{"schema_version", report.schema_version},
         {"kind", "gpusizer.report"},
         {"tool",
          {{"name", report.tool.name},
           {"version", report.tool.version},
           {"git_revision", report.tool.git_revision}}},
         {"command_line", report.command_line},
         {"started_at", report.started_at},
         {"finished_at", report.finished_at},
         {"status", report.status},
         {"suite", report.suite},
         {"settings", report.settings},
         {"host", host},
         {"targets", targets},
         {"target_telemetry", report.target_telemetry},
         {"records", records},
         {"not_run", not_run},
         {"warnings", report.warnings}};
  for (const auto& session : report.history) j["history"].push_back(to_json(session));
  if (!report.hosts.empty()) {
    json hosts = json::array();
    for (const auto& h : report.hosts) hosts.push_back(to_json(h));
    j["hosts"] = hosts;
  }
  j["integrity"] = record_chain(j);  // over the targets and records exactly as written
  if (!report.integrity_breaks.empty()) j["integrity"]["breaks"] = report.integrity_breaks;
  return j;
}

Report report_from_json(const JsonInput& in) {
  if (!in.is_object())
    in.fail("expected a gpusizer report (a JSON object), got " + describe_json(in.raw()));
  auto version = in.at("schema_version");
  if (!version.raw().is_number_integer() ||
      version.raw().get<long long>() != kReportSchemaVersion) {
    version.fail("unsupported report schema_version " + describe_json(version.raw()) +
                 " (this gpusizer reads version " + std::to_string(kReportSchemaVersion) + ")");
  }
  in.allow_only({"schema_version", "kind", "tool", "command_line", "started_at", "finished_at",
                 "status", "suite", "settings", "host", "hosts", "targets", "target_telemetry",
                 "records", "not_run", "warnings", "history", "integrity"});
  auto kind = in.at("kind");
  if (kind.string() != "gpusizer.report")
    kind.fail("expected \"gpusizer.report\", got " + describe_json(kind.raw()));
  Report report;
  auto tool = in.at("tool");
  tool.allow_only({"name", "version", "git_revision"});
  report.tool =
      ToolInfo{tool.string_at("name"), tool.string_at("version"), tool.string_at("git_revision")};
  report.command_line = string_list(in.at("command_line"));
  report.started_at = in.string_at("started_at");
  report.finished_at = in.string_at("finished_at");
  report.status = in.at("status").enumerated<ReportStatus>();
  report.suite = in.string_at("suite");
  auto settings = in.at("settings");
  if (!settings.is_object())
    settings.fail("expected an object, got " + describe_json(settings.raw()));
  report.settings = settings.raw();
  report.host = host_from_json(in.at("host"));
  if (auto hosts = in.find("hosts")) {
    for (const auto& item : hosts->items()) {
      Host h = host_from_json(item);
      if (h.id.empty()) item.fail("a fleet host needs a non-empty \"id\"");
      for (const auto& other : report.hosts) {
        if (other.id == h.id) item.at("id").fail("duplicate host id \"" + h.id + "\"");
      }
      report.hosts.push_back(std::move(h));
    }
  }
  for (const auto& t : in.at("targets").items()) {
    Target target = target_from_json(t);
    if (target.host &&
        report.hosts.end() == std::find_if(report.hosts.begin(), report.hosts.end(),
                                           [&](const Host& h) { return h.id == *target.host; })) {
      t.at("host").fail("no host with id \"" + *target.host + "\" in \"hosts\"");
    }
    report.targets.push_back(std::move(target));
  }
  if (auto tt = in.find("target_telemetry")) {
    if (!tt->is_object()) tt->fail("expected an object, got " + describe_json(tt->raw()));
    report.target_telemetry = tt->raw();
  }
  for (const auto& r : in.at("records").items()) {
    Record rec = record_from_json(r);
    if (report.find_record(rec.id) != nullptr)
      r.at("id").fail("duplicate record id \"" + rec.id + "\"");
    report.records.push_back(std::move(rec));
  }
  if (auto nr = in.find("not_run")) {
    for (const auto& item : nr->items()) {
      item.allow_only({"id", "reason"});
      report.not_run.emplace_back(item.at("id").non_empty_string(), item.string_at("reason"));
    }
  }
  if (auto w = in.find("warnings")) report.warnings = string_list(*w);
  if (auto h = in.find("history")) {
    for (const auto& item : h->items()) report.history.push_back(session_from_json(item));
  }
  return report;
}

Report load_report_text(std::string_view text, const std::string& source) {
  json doc = JsonInput::parse_text(text, source);
  Report report;
  try {
    report = report_from_json(JsonInput(doc, source));
    // A copy whose chain does not hold says so in every later write (resume, merge): kept in
    // integrity.breaks. A report from before the chain holds records nobody can vouch for.
    report.integrity_breaks = record_chain_breaks(doc);
    if (doc.contains("integrity") || !report.records.empty()) {
      for (const auto& f : record_chain_findings(doc)) report.integrity_breaks.push_back(f);
    }
  } catch (...) {
    JsonInput::release(doc);  // a large rejected document must not abort on its way out
    throw;
  }
  JsonInput::release(doc);
  flag_implausible_records(report);
  return report;
}

Report load_report(const std::filesystem::path& file) {
  return load_report_text(read_input_file(file, input_kinds::report), file.string());
}

}  // namespace gpusizer
