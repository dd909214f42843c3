// Issue 13: prices from the user's own AWS account and the options a planner compares.
// AWS CLI outputs in their real shape (tests/sizing/aws/*.json: member names and value types of
// botocore's EC2 / Service Quotas models as the CLI prints them, both CLI v1 and v2 timestamps)
// with look-alike rows; --region, accelerator names, --instance-types / --families, the
// datasheet estimates for A10G, B200 and Inferentia2, and the Savings Plans overlay example.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "fixtures.hpp"
#include "gpusizer/error.hpp"
#include "gpusizer/sizing/aws_import.hpp"
#include "gpusizer/sizing/commands.hpp"
#include "gpusizer/sizing/dates.hpp"
#include "gpusizer/sizing/engine.hpp"

using namespace gpusizer::sizing;
using namespace sizing_test;
using nlohmann::json;

namespace {

const std::string kSource = GPUSIZER_SOURCE_DIR;
const std::string kCatalog = kSource + "/data/catalog/aws-us-east-1.json";
const std::string kSpot = kSource + "/tests/sizing/aws/spot-price-history.json";
const std::string kBlocks = kSource + "/tests/sizing/aws/capacity-block-offerings.json";

AwsImportOptions options_on(const char* today) {
  AwsImportOptions o;
  o.region = "us-east-1";
  o.today = *parse_date(today);
  o.as_of = "2026-11-30T09:00:00Z";
  return o;
}

const Price* price_of(const AwsImport& imported, const std::string& type) {
  for (const auto& p : imported.overlay.prices)
    if (p.instance_type == type) return &p.price;
  return nullptr;
}

bool has(const std::vector<std::string>& lines, const std::string& text) {
  for (const auto& l : lines)
    if (l.find(text) != std::string::npos) return true;
  return false;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const gpusizer::InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string h100_report() {
  auto t = gpu_target("gpu0", "NVIDIA H100 80GB HBM3");
  auto gemm = record("gemm/bf16/8192", "gemm", "bf16", {"gpu0"}, "throughput", 700e12, "FLOP/s");
  return save("import-h100-report.json", report_with({t}, {gemm}));
}

json recommend_json(RecommendOptions o) {
  o.format = gpusizer::TextFormat::json;
  std::ostringstream out;
  run_recommend(o, out);
  return json::parse(out.str());
}

}  // namespace

TEST(SizingAwsImport, SpotHistoryKeepsLinuxOfTheRegionWithAStatedStatistic) {
  Catalog catalog = load_catalog(kCatalog);
  auto o = options_on("2026-11-30");
  AwsImport got = import_aws_file(kSpot, o, catalog);
  EXPECT_EQ(got.option, "spot");
  EXPECT_EQ(got.rows_seen, 14);
  // Kept: 1b 28.10, m1.xlarge, 1a 32.50, 1c 24.00, 1a 30.00, 1c 25.00, 1c 41.00, g6.2xlarge.
  EXPECT_EQ(got.rows_kept, 8);
  EXPECT_TRUE(has(got.left_out, "1 row with product description \"Windows\""));
  EXPECT_TRUE(has(got.left_out, "1 row with product description \"Windows (Amazon VPC)\""));
  EXPECT_TRUE(has(got.left_out, "1 row with product description \"SUSE Linux\""));
  EXPECT_TRUE(has(got.left_out, "1 row with product description \"Red Hat Enterprise Linux\""));
  EXPECT_TRUE(has(got.left_out, "1 row of region us-west-2"));
  EXPECT_TRUE(has(got.left_out, "1 row repeating a change already read"));
  EXPECT_TRUE(has(got.left_out, "1 instance type(s) the catalog lacks: m1.xlarge"));
  // Window: 7 days to the newest change 2026-11-29T10:00:00Z, from 2026-11-22T10:00:00Z.
  // us-east-1a: 30.00 (in force when the window opened) and 32.50 -> 32.50; us-east-1b: 28.10;
  // us-east-1c: 41.00 (replaced on 11-10, before the window), 25.00 (in force at the start),
  // 24.00 -> 25.00. max of {32.50, 28.10, 25.00} = 32.50.
  const Price* p5 = price_of(got, "p5.48xlarge");
  ASSERT_NE(p5, nullptr);
  EXPECT_DOUBLE_EQ(p5->usd_per_hour, 32.5);
  EXPECT_EQ(p5->as_of, "2026-11-29T10:00:00Z");
  EXPECT_FALSE(p5->illustrative);
  EXPECT_NE(p5->note.find("max across 3 Availability Zone(s)"), std::string::npos) << p5->note;
  EXPECT_NE(p5->note.find("us-east-1a $32.50, us-east-1b $28.10, us-east-1c $25.00"),
            std::string::npos)
      << p5->note;
  EXPECT_NE(p5->source.find("aws ec2 describe-spot-price-history"), std::string::npos);
  EXPECT_DOUBLE_EQ(price_of(got, "g6.2xlarge")->usd_per_hour, 0.4123);
  EXPECT_EQ(price_of(got, "m1.xlarge"), nullptr);
  // Nearest rank over the sorted zone values {25.00, 28.10, 32.50}: p50 = ceil(0.5 x 3) = 2nd
  // = 28.10; p90 = ceil(2.7) = 3rd = 32.50; min = 25.00.
  o.statistic = gpusizer::SpotStatistic::p50;
  EXPECT_DOUBLE_EQ(price_of(import_aws_file(kSpot, o, catalog), "p5.48xlarge")->usd_per_hour, 28.1);
  o.statistic = gpusizer::SpotStatistic::p90;
  EXPECT_DOUBLE_EQ(price_of(import_aws_file(kSpot, o, catalog), "p5.48xlarge")->usd_per_hour, 32.5);
  o.statistic = gpusizer::SpotStatistic::min;
  EXPECT_DOUBLE_EQ(price_of(import_aws_file(kSpot, o, catalog), "p5.48xlarge")->usd_per_hour, 25.0);
  // A 3-day window opens 2026-11-26T10:00:00Z: us-east-1c's 24.00 (11-23) is then the price in
  // force and 25.00 drops out: min = 24.00.
  o.window_days = 3;
  EXPECT_DOUBLE_EQ(price_of(import_aws_file(kSpot, o, catalog), "p5.48xlarge")->usd_per_hour, 24.0);
  // The newest change is 2026-11-29; on 2027-03-30 that is 121 days old (> 90): warned.
  auto late = options_on("2027-03-30");
  EXPECT_TRUE(has(import_aws_file(kSpot, late, catalog).warnings, "121 days ago"));
  // Another Region keeps only its own rows: us-west-2 has one p5.48xlarge row, $10.00.
  auto west = options_on("2026-11-30");
  west.region = "us-west-2";
  EXPECT_DOUBLE_EQ(price_of(import_aws_file(kSpot, west, catalog), "p5.48xlarge")->usd_per_hour,
                   10.0);
}

TEST(SizingAwsImport, SpotHistoryMalformedRowsAreOneLineErrors) {
  auto o = options_on("2026-11-30");
  auto row = [](const std::string& stamp, const json& price, const std::string& zone) {
    return json{{"AvailabilityZone", zone},
                {"InstanceType", "p5.48xlarge"},
                {"ProductDescription", "Linux/UNIX"},
                {"SpotPrice", price},
                {"Timestamp", stamp}};
  };
  auto run = [&](const json& bad) {
    json doc{
        {"SpotPriceHistory", {row("2026-11-29T10:00:00.000Z", "28.100000", "us-east-1a"), bad}}};
    return error_of([&] { import_spot_price_history(gpusizer::JsonInput(doc, "spot.json"), o); });
  };
  EXPECT_EQ(run(row("2026-11-29 10:00:00", "1.0", "us-east-1a")),
            "spot.json: /SpotPriceHistory/1/Timestamp: expected an ISO 8601 timestamp with a zone "
            "(2014-01-06T07:10:55.000Z or 2014-01-06T07:10:55+00:00), got the string "
            "\"2026-11-29 10:00:00\"");
  EXPECT_EQ(run(row("2026-13-01T10:00:00Z", "1.0", "us-east-1a"))
                .rfind("spot.json: /SpotPriceHistory/1/Timestamp: expected an ISO 8601", 0),
            0u);
  EXPECT_EQ(run(row("2026-11-29T10:00:00Z", "0.000000", "us-east-1a")),
            "spot.json: /SpotPriceHistory/1/SpotPrice: expected a positive price, got the string "
            "\"0.000000\"");
  EXPECT_EQ(run(row("2026-11-29T10:00:00Z", "-1.5", "us-east-1a"))
                .rfind("spot.json: /SpotPriceHistory/1/SpotPrice: expected a positive decimal", 0),
            0u);
  EXPECT_EQ(run(row("2026-11-29T10:00:00Z", "1.0", "use1-az4")),
            "spot.json: /SpotPriceHistory/1/AvailabilityZone: expected an Availability Zone name "
            "(us-east-1a), got \"use1-az4\"");
  // Nothing of the region: one line, what was left out.
  json windows{{"SpotPriceHistory",
                {{{"AvailabilityZone", "us-east-1a"},
                  {"InstanceType", "p5.48xlarge"},
                  {"ProductDescription", "Windows"},
                  {"SpotPrice", "60.0"},
                  {"Timestamp", "2026-11-29T10:00:00Z"}}}}};
  EXPECT_EQ(error_of([&] { import_spot_price_history(gpusizer::JsonInput(windows, "w.json"), o); }),
            "w.json: /SpotPriceHistory: no Linux/UNIX spot price for region us-east-1 (1 row with "
            "product description \"Windows\")");
  // A partial file (NextToken left) is said.
  json partial{{"SpotPriceHistory", {row("2026-11-29T10:00:00Z", "1.0", "us-east-1a")}},
               {"NextToken", "eyJ2IjoiMiJ9"}};
  EXPECT_TRUE(has(import_spot_price_history(gpusizer::JsonInput(partial, "p.json"), o).warnings,
                  "p.json: /NextToken: the file is one page of several"));
}

TEST(SizingAwsImport, CapacityBlockOfferingsGiveTheHourlyRateOfTheOffer) {
  Catalog catalog = load_catalog(kCatalog);
  AwsImport got = import_aws_file(kBlocks, options_on("2026-11-30"), catalog);
  EXPECT_EQ(got.option, "capacity_block");
  EXPECT_EQ(got.rows_seen, 7);
  EXPECT_EQ(got.rows_kept, 4);  // cbr-...0, ...1, ...5 and m1.xlarge (then not in the catalog)
  EXPECT_TRUE(has(got.left_out, "1 dedicated-tenancy offerings"));
  EXPECT_TRUE(has(got.left_out, "1 offerings of region us-east-2"));
  EXPECT_TRUE(has(got.left_out, "1 UltraServer offerings"));
  EXPECT_TRUE(has(got.left_out, "the catalog lacks: m1.xlarge"));
  // p5.48xlarge: 23257.92 / (4 x 168 h) = 23257.92 / 672 = $34.61 per instance-hour; the other
  // us-east-1 offer, 24192.00 / 672 = $36.00, is dearer and not kept.
  const Price* p5 = price_of(got, "p5.48xlarge");
  ASSERT_NE(p5, nullptr);
  EXPECT_NEAR(p5->usd_per_hour, 34.61, 1e-12);
  ASSERT_TRUE(p5->offering);
  EXPECT_EQ(p5->offering->id, "cbr-0123456789abcdef0");
  EXPECT_EQ(p5->offering->availability_zone, "us-east-1a");
  EXPECT_EQ(p5->offering->instance_count, 4);
  EXPECT_DOUBLE_EQ(p5->offering->duration_hours, 168.0);
  EXPECT_EQ(p5->offering->start_date, "2026-12-07T11:30:00+00:00");
  EXPECT_EQ(p5->as_of, "2026-11-30T09:00:00Z");
  EXPECT_NE(p5->note.find("1 other offering(s) for this type in the file not kept"),
            std::string::npos);
  // p4d.24xlarge: 6 h 35 min = 6.58333 h; 395.00 / (4 x 6.58333 h = 26.3333 h) = $15.00.
  const Price* p4d = price_of(got, "p4d.24xlarge");
  ASSERT_NE(p4d, nullptr);
  EXPECT_NEAR(p4d->usd_per_hour, 15.0, 1e-12);
  EXPECT_NEAR(p4d->offering->duration_hours, 6.0 + 35.0 / 60.0, 1e-12);
  // The overlay round-trips through the overlay loader (schema of catalog overlays).
  auto path = write_json("cb-overlay.json", to_json(got.overlay));
  CatalogOverlay back = load_overlay(path);
  ASSERT_EQ(back.prices.size(), 2u);
  EXPECT_EQ(back.prices[1].price.offering->instance_count, 4);
}

TEST(SizingAwsImport, CapacityBlockOtherCurrencyAndBadValuesAreOneLineErrors) {
  auto o = options_on("2026-11-30");
  json offer{{"CapacityBlockOfferingId", "cbr-1"},
             {"InstanceType", "p5.48xlarge"},
             {"AvailabilityZone", "us-east-1a"},
             {"InstanceCount", 1},
             {"StartDate", "2026-12-07T11:30:00Z"},
             {"EndDate", "2026-12-08T11:30:00Z"},
             {"CapacityBlockDurationHours", 24},
             {"UpfrontFee", "944.64"},
             {"CurrencyCode", "EUR"},
             {"Tenancy", "default"}};
  auto run = [&](const json& item) {
    json doc{{"CapacityBlockOfferings", {item}}};
    return error_of(
        [&] { import_capacity_block_offerings(gpusizer::JsonInput(doc, "cb.json"), o); });
  };
  EXPECT_EQ(run(offer),
            "cb.json: /CapacityBlockOfferings/0/CurrencyCode: expected \"USD\" (gpusizer never "
            "converts currencies), got \"EUR\"");
  offer["CurrencyCode"] = "USD";
  offer["UpfrontFee"] = "0.00";
  EXPECT_EQ(run(offer),
            "cb.json: /CapacityBlockOfferings/0/UpfrontFee: expected a positive price, got the "
            "string \"0.00\"");
  offer["UpfrontFee"] = "944.64";
  offer["StartDate"] = "next Monday";
  EXPECT_EQ(
      run(offer).rfind("cb.json: /CapacityBlockOfferings/0/StartDate: expected an ISO 8601", 0),
      0u);
  offer["StartDate"] = "2026-12-07T11:30:00Z";
  offer["InstanceCount"] = 0;
  EXPECT_EQ(run(offer),
            "cb.json: /CapacityBlockOfferings/0/InstanceCount: expected at least 1 "
            "instance");
  // AWS's own example shape: 12:00 to 11:30 two days later is 47.5 h but the offering states
  // 48 h; the rate uses the stated 48 h (2400.00 / (1 x 48) = $50.00) and the gap is warned.
  offer["InstanceCount"] = 1;
  offer["StartDate"] = "2026-12-30T12:00:00Z";
  offer["EndDate"] = "2027-01-01T11:30:00Z";
  offer["CapacityBlockDurationHours"] = 48;
  offer["UpfrontFee"] = "2400.00";
  json doc{{"CapacityBlockOfferings", {offer}}};
  AwsImport got = import_capacity_block_offerings(gpusizer::JsonInput(doc, "cb.json"), o);
  EXPECT_DOUBLE_EQ(got.overlay.prices[0].price.usd_per_hour, 50.0);
  EXPECT_TRUE(has(got.warnings, "EndDate - StartDate is 47.5 h but the offering states 48 h"));
  // An offering that already started is kept with a warning (it cannot be bought as offered).
  AwsImport later = import_capacity_block_offerings(gpusizer::JsonInput(doc, "cb.json"),
                                                    options_on("2027-01-05"));
  EXPECT_TRUE(has(later.warnings, "before today: it can no longer be bought as offered"));
}

TEST(SizingAwsImport, ThePlanUsesTheOfferAndSaysWhereItFallsShort) {
  Catalog catalog = load_catalog(kCatalog);
  AwsImport imported = import_aws_file(kBlocks, options_on("2026-11-30"), catalog);
  apply_overlay(catalog, imported.overlay, "cb-overlay.json");
  auto w = base_workload();
  w.erase("work_per_unit");
  // One replica on all 8 GPUs at 100 req/s (the user's rate); target 400:
  // ceil(400 / 70) = ceil(5.71) = 6 replicas = 6 instances.
  w["target_rate"]["value"] = 400;
  w["gpus_per_replica"] = 8;
  w["measured_rates"] = {
      {{"instance_type", "p5.48xlarge"}, {"units_per_second", 100}, {"source", "mine"}}};
  w["reservation_window"] = {{"days", 10}, {"busy_fraction", 1.0}};
  EngineOptions o;
  o.today = *parse_date("2026-11-30");
  Plan plan =
      make_plan(demand_from_json(gpusizer::JsonInput(w, "w.json")), CapabilityTable{}, catalog, o);
  const PlanRow* cb = nullptr;
  for (const auto& r : plan.rows)
    if (r.instance_type == "p5.48xlarge" && r.cost.option == "capacity_block") cb = &r;
  ASSERT_NE(cb, nullptr);
  EXPECT_EQ(cb->cost.instances, 6);
  // 6 x $34.61 x 10 days x 24 h = $49,838.40; break-even 34.61 / 55.04 = 0.628815...
  EXPECT_NEAR(*cb->cost.window_usd, 49838.4, 1e-6);
  EXPECT_NEAR(*cb->cost.break_even_busy_fraction, 34.61 / 55.04, 1e-12);
  EXPECT_TRUE(has(cb->cost.notes,
                  "the plan needs 6 instances, the offer holds 4: search again with "
                  "--instance-count 6"));
  EXPECT_TRUE(has(cb->cost.notes,
                  "the offer lasts 168 h, the window is 10 days (240 h): search again with "
                  "--capacity-duration-hours 240"));
}

TEST(SizingAwsImport, RegionIsFirstClassAndMissingPricesAreSaid) {
  auto overlay = write_json(
      "us-east-2.json",
      {{"schema_version", 1},
       {"kind", "gpusizer.catalog-overlay"},
       {"region", "us-east-2"},
       {"prices",
        {{{"instance_type", "p5.48xlarge"},
          {"option", "on_demand"},
          {"usd_per_hour", 55.04},
          {"source", "aws pricing get-products --region us-east-1 (regionCode us-east-2)"},
          {"as_of", "2026-11-01"}}}}});
  auto w = base_workload();
  w["target_rate"]["value"] = 1000;
  w["allowed"] = {"gpu"};
  RecommendOptions o;
  o.workloads = {write_json("region-w.json", w)};
  o.reports = {h100_report()};
  o.catalog.catalog = kCatalog;
  o.catalog.region = "us-east-2";
  o.catalog.overlays = {overlay};
  o.catalog.today = "2026-11-30";
  json plan = recommend_json(o);
  EXPECT_EQ(plan["catalog"]["region"], "us-east-2");
  // Only the priced type remains: 8 x 700 req/s = 5600; ceil(1000 / 3920) = 1 x $55.04/h.
  ASSERT_EQ(plan["options"].size(), 1u);
  EXPECT_EQ(plan["options"][0]["instance_type"], "p5.48xlarge");
  EXPECT_DOUBLE_EQ(plan["options"][0]["cost"]["usd_per_hour"].get<double>(), 55.04);
  std::string warnings = plan["warnings"].dump();
  EXPECT_NE(warnings.find("no catalog for region us-east-2"), std::string::npos) << warnings;
  // 54 types in the catalog, 1 priced by the overlay: 53 without any price in us-east-2.
  EXPECT_NE(warnings.find("region us-east-2: no price at all for 53 of 54 instance type(s)"),
            std::string::npos)
      << warnings;
  bool said = false;
  for (const auto& e : plan["excluded"]) {
    said = said || (e["instance_type"] == "p5.4xlarge" &&
                    e["reason"].get<std::string>().find("no on-demand price in us-east-2") !=
                        std::string::npos);
  }
  EXPECT_TRUE(said);
  // An overlay of another region than --region is refused; a malformed region too.
  o.catalog.region = "us-west-2";
  EXPECT_NE(error_of([&] { recommend_json(o); }).find("/region: overlay is for region"),
            std::string::npos);
  o.catalog.region = "US East";
  EXPECT_EQ(error_of([&] { recommend_json(o); }),
            "--region: expected an AWS Region code such as us-east-2, got \"US East\"");
}

TEST(SizingAwsImport, AcceleratorNamesMatchCaseInsensitivelyByFamilyAndAlias) {
  CatalogOptions o;
  o.catalog.catalog = kCatalog;
  o.catalog.today = "2026-11-30";
  auto listing = [&](const std::string& name) {
    o.accelerator = name;
    std::ostringstream out;
    run_catalog(o, out);
    return out.str();
  };
  std::string a100 = listing("A100");  // family: A100-40GB and A100-80GB
  EXPECT_NE(a100.find("p4d.24xlarge"), std::string::npos) << a100;
  EXPECT_NE(a100.find("p4de.24xlarge"), std::string::npos);
  EXPECT_EQ(a100.find("p5.48xlarge"), std::string::npos);
  std::string inf2 = listing("inf2");  // alias of Inferentia2
  EXPECT_NE(inf2.find("inf2.48xlarge"), std::string::npos) << inf2;
  EXPECT_NE(listing("INFERENTIA2").find("inf2.xlarge"), std::string::npos);
  EXPECT_NE(listing("nvidia a10g").find("g5.xlarge"), std::string::npos);  // a report name
  const std::string none = error_of([&] { listing("A200"); });
  EXPECT_EQ(none.rfind("--accelerator: no match for \"A200\"; known names: T4, A10G", 0), 0u)
      << none;
  EXPECT_NE(none.find("Inferentia2 (inf2, Inferentia 2, Inferentia)"), std::string::npos);
  // Illustrative and stale marks in the listing (2026-07-20 is 133 days before 2026-11-30).
  o.accelerator = "H100";
  std::ostringstream out;
  run_catalog(o, out);
  EXPECT_NE(out.str().find("$55.04 stale"), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("$30.33 illustrative stale"), std::string::npos);
  o.format = gpusizer::TextFormat::json;
  std::ostringstream j;
  run_catalog(o, j);
  auto doc = json::parse(j.str());
  EXPECT_EQ(doc["instances"][1]["prices"]["on_demand"]["age_days"], 133);
  EXPECT_EQ(doc["instances"][1]["prices"]["spot"]["stale"], true);
}

TEST(SizingAwsImport, InstanceTypesAndFamiliesRestrictThePlan) {
  auto w = base_workload();
  w["target_rate"]["value"] = 1000;
  w["allowed"] = {"gpu"};
  RecommendOptions o;
  o.workloads = {write_json("restrict-w.json", w)};
  o.reports = {h100_report()};
  o.catalog.catalog = kCatalog;
  o.instance_types = {"p5.48xlarge", "g6e.12xlarge"};
  json plan = recommend_json(o);
  ASSERT_FALSE(plan["options"].empty());
  for (const auto& opt : plan["options"]) {
    const std::string t = opt["instance_type"];
    EXPECT_TRUE(t == "p5.48xlarge" || t == "g6e.12xlarge") << t;
  }
  EXPECT_EQ(plan["catalog"]["restricted_to"], json({"p5.48xlarge", "g6e.12xlarge"}));
  o.instance_types = {};
  o.families = {"p5"};
  plan = recommend_json(o);
  for (const auto& opt : plan["options"]) {
    EXPECT_EQ(opt["instance_type"].get<std::string>().rfind("p5.", 0), 0u) << opt["instance_type"];
  }
  o.instance_types = {"p9.48xlarge"};
  o.families = {};
  EXPECT_EQ(error_of([&] {
              recommend_json(o);
            }).rfind("--instance-types: \"p9.48xlarge\" is not in the catalog", 0),
            0u);
  o.instance_types = {};
  o.families = {"p9"};
  EXPECT_EQ(error_of([&] {
              recommend_json(o);
            }).rfind("--families: \"p9\" is not a family in the catalog (known: g4dn, g5", 0),
            0u);
}

TEST(SizingAwsImport, A10gB200AndInferentia2AreLabelledEstimatesTrainiumIsNot) {
  auto w = base_workload();  // 1e12 FLOP bf16 per request, 10 GiB, utilisation 0.7
  w["target_rate"]["value"] = 1000;
  w["allowed"] = {"gpu", "inferentia", "trainium"};
  RecommendOptions o;
  o.workloads = {write_json("peaks-w.json", w)};
  o.reports = {h100_report()};
  o.catalog.catalog = kCatalog;
  o.catalog.today = "2026-08-01";
  json plan = recommend_json(o);
  auto option = [&](const std::string& type) {
    for (const auto& opt : plan["options"])
      if (opt["instance_type"] == type && opt["cost"]["option"] == "on_demand") return opt;
    return json();
  };
  // Efficiency from the only measured accelerator: H100 700 / 989 TFLOP/s.
  const double efficiency = 700.0 / 989.0;
  // g5.xlarge: 70e12 x 0.70779 = 49.545 req/s; ceil(1000 / 34.68) = ceil(28.83) = 29 x $1.006
  // = $29.174/h.
  json g5 = option("g5.xlarge");
  ASSERT_FALSE(g5.is_null());
  EXPECT_EQ(g5["label"], "estimated");
  EXPECT_NEAR(g5["units_per_second_per_replica"].get<double>(), 70.0 * efficiency, 1e-9);
  EXPECT_EQ(g5["cost"]["instances"], 29);
  EXPECT_NEAR(g5["cost"]["usd_per_hour"].get<double>(), 29.174, 1e-9);
  EXPECT_NE(g5["basis"].get<std::string>().find("A10G peaks are third-party figures"),
            std::string::npos);
  // p6-b200.48xlarge: 2250e12 x 0.70779 = 1592.5 req/s per GPU x 8 = 12740; 1 instance,
  // $113.9328/h.
  json b200 = option("p6-b200.48xlarge");
  ASSERT_FALSE(b200.is_null());
  EXPECT_NEAR(b200["units_per_second_per_replica"].get<double>(), 2250.0 * efficiency, 1e-9);
  EXPECT_EQ(b200["cost"]["instances"], 1);
  EXPECT_NEAR(b200["cost"]["usd_per_hour"].get<double>(), 113.9328, 1e-9);
  EXPECT_NE(b200["basis"].get<std::string>().find("B200 peaks via reproductions"),
            std::string::npos);
  // inf2.xlarge: 190e12 x 0.70779 = 134.48 req/s; ceil(1000 / 94.13) = ceil(10.62) = 11 x
  // $0.7582 = $8.3402/h; Neuron memory is the catalog's 32 GiB (no CUDA context reserve).
  json inf2 = option("inf2.xlarge");
  ASSERT_FALSE(inf2.is_null());
  EXPECT_EQ(inf2["label"], "estimated");
  EXPECT_EQ(inf2["cost"]["instances"], 11);
  EXPECT_NEAR(inf2["cost"]["usd_per_hour"].get<double>(), 8.3402, 1e-9);
  EXPECT_DOUBLE_EQ(inf2["memory_per_accelerator_bytes"].get<double>(), 32.0 * 1073741824.0);
  // Trainium: no cited peak in the catalog, so only a user-measured rate sizes it.
  bool trn = false;
  for (const auto& e : plan["excluded"]) {
    trn = trn || (e["instance_type"] == "trn1.2xlarge" &&
                  e["reason"].get<std::string>().find("no datasheet peak for compute") !=
                      std::string::npos);
  }
  EXPECT_TRUE(trn);
}

TEST(SizingAwsImport, SavingsPlanAndReservedOverlayExample) {
  auto w = base_workload();
  w["target_rate"]["value"] = 1000;
  w["allowed"] = {"gpu"};
  RecommendOptions o;
  o.workloads = {write_json("sp-w.json", w)};
  o.reports = {h100_report()};
  o.catalog.catalog = kCatalog;
  o.catalog.overlays = {kSource + "/examples/overlays/savings-plan-and-reserved.json"};
  o.instance_types = {"p5.48xlarge"};
  json plan = recommend_json(o);
  // 1 x p5.48xlarge (5600 req/s per instance): savings plan $38.528/h x 730 h = $28,125.44;
  // reserved $35.776/h x 730 h = $26,116.48; both paid every hour of the term.
  std::map<std::string, json> by_option;
  for (const auto& opt : plan["options"]) by_option[opt["cost"]["option"]] = opt;
  ASSERT_TRUE(by_option.count("savings_plan"));
  ASSERT_TRUE(by_option.count("reserved"));
  EXPECT_NEAR(by_option["savings_plan"]["cost"]["usd_per_month"].get<double>(), 28125.44, 1e-6);
  EXPECT_NEAR(by_option["reserved"]["cost"]["usd_per_month"].get<double>(), 26116.48, 1e-6);
  EXPECT_EQ(by_option["reserved"]["cost"]["price"]["illustrative"], true);
  // The placeholder price ranks above the dated on-demand one: the summary says so.
  EXPECT_NE(plan["summary"].dump().find("ranks on an ILLUSTRATIVE price"), std::string::npos);
}

TEST(SizingAwsImport, DatesOfBothCliVersionsAndPriceAsOf) {
  // 2014-01-06: 16076 days after 1970-01-01 (44 years incl. 11 leap days = 16071, + 5).
  EXPECT_EQ(*parse_timestamp("2014-01-06T07:10:55.000Z"),
            16076LL * 86400 + 7 * 3600 + 10 * 60 + 55);
  EXPECT_EQ(parse_timestamp("2014-01-06T07:10:55+00:00"), parse_timestamp("2014-01-06T07:10:55Z"));
  EXPECT_EQ(*parse_timestamp("2014-01-06T09:10:55+02:00"),
            *parse_timestamp("2014-01-06T07:10:55Z"));
  EXPECT_FALSE(parse_timestamp("2014-01-06T07:10:55"));  // no zone
  EXPECT_FALSE(parse_timestamp("2014-02-30T07:10:55Z"));
  EXPECT_EQ(*as_of_day("2025-06"), *parse_date("2025-06-01"));
  EXPECT_EQ(*as_of_day("20240528203522"), *parse_date("2024-05-28"));
  EXPECT_EQ(*as_of_day("2024-05-28T20:35:22Z"), *parse_date("2024-05-28"));
  EXPECT_FALSE(as_of_day("late 2024"));
  EXPECT_EQ(region_of_zone("us-east-1a"), "us-east-1");
  EXPECT_EQ(region_of_zone("us-east-1-dfw-2a"), "us-east-1");
  EXPECT_EQ(region_of_zone("us-gov-west-1b"), "us-gov-west-1");
  EXPECT_EQ(region_of_zone("use1-az4"), "");
}
