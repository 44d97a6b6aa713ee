// The io boundary of issue 17: absurd values in motion files, a UTF-8 byte-order mark, a motion sampled
// more coarsely than the knots that fit it, and output paths that name an input or another output.
#include <gtest/gtest.h>

#include <string>

#include "io/io_test_util.hpp"
#include "mimic/core/error.hpp"
#include "mimic/io/json.hpp"
#include "mimic/io/motion_files.hpp"
#include "mimic/io/output_paths.hpp"
#include "mimic/io/sample_spacing.hpp"
#include "mimic/io/sequence.hpp"

namespace fs = std::filesystem;

namespace mimic::io {
namespace {

// A .zmp line: the time and three values.
std::string zmp_line(const std::string& time, const std::string& x = "0.01") {
  return time + " " + x + " 0 -0.6\n";
}

template <class Call>
std::string error_of(Call call) {
  try {
    call();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an error";
  return "";
}

TEST(MotionFileValues, AbsurdValuesAreRefusedWithTheLineAndField) {
  for (const std::string bad : {"1e308", "-2e6", "1e7"}) {
    EXPECT_EQ(error_of([&] { parse_zmp(zmp_line("0") + zmp_line("0.005", bad), "a.zmp"); }),
              "a.zmp:line 2: expected a number within +-1e+06 as field 2, found '" + bad + "'");
  }
  EXPECT_EQ(error_of([&] { parse_zmp(zmp_line("1e300"), "a.zmp"); }),
            "a.zmp:line 1: expected a number within +-1e+06 as the time (field 1), found '1e300'");
  // Non-finite values were already refused; they still are.
  EXPECT_EQ(error_of([&] { parse_zmp(zmp_line("0", "nan"), "a.zmp"); }),
            "a.zmp:line 1: expected a finite number as field 2, found 'nan'");
  EXPECT_NO_THROW(parse_zmp(zmp_line("0", "-1e6"), "a.zmp"));
}

TEST(MotionFileValues, ByteOrderMarkIsAcceptedInFiles) {
  const fs::path dir = test::fresh_dir("bom");
  test::spit(dir / "a.zmp", "\xEF\xBB\xBF" + zmp_line("0") + zmp_line("0.005"));
  const ZmpSequence zmp = read_zmp(dir / "a.zmp");
  ASSERT_EQ(zmp.times.size(), 2u);
  EXPECT_EQ(zmp.times[1], 0.005);
  fs::remove_all(dir);
}

TEST(SampleSpacing, SamplesFartherApartThanTheKnotsAreRefusedNamingTheFile) {
  EXPECT_NO_THROW(check_sample_spacing({0.0, 0.005, 0.01}, 0.1, "s.pos"));
  EXPECT_NO_THROW(check_sample_spacing({0.0, 0.1, 0.2}, 0.1, "s.pos"));  // one sample per interval
  EXPECT_EQ(error_of([] {
              check_sample_spacing({0.0, 5.0, 10.0}, 0.1, "s.pos");
            }),
            "s.pos: samples 5 s apart (t = 0 .. 5 s) are farther apart than trajectory.knot_spacing (0.1 s): "
            "every knot interval needs a sample; resample the motion or raise the knot spacing");
}

TEST(OutputPaths, AnOutputNamingAnInputIsAUsageError) {
  const fs::path dir = test::fresh_dir("output_paths");
  const fs::path x = dir / "x.pos";
  try {
    check_output_paths({{x, "the checked motion"}}, {{x, "the report (--report)"}});
    FAIL() << "a report over the input was accepted";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "the report (--report) '" + x.string() + "' is the checked motion '" + x.string() +
                  "': writing it would overwrite the input; choose another output path");
  }
  // "./x.pos", "sub/../x.pos" and "x.pos" are one file, existing or not.
  const fs::path dotted = dir / "." / "sub" / ".." / "x.pos";
  EXPECT_THROW(check_output_paths({{x, "in"}}, {{dotted, "out"}}), UsageError);
  EXPECT_NO_THROW(check_output_paths({{x, "in"}}, {{dir / "y.pos", "out"}, {fs::path(), "no report"}}));
  fs::remove_all(dir);
}

TEST(OutputPaths, TwoOutputsOnOneFileAreAUsageError) {
  const std::vector<CommandFile> outputs = motion_file_set("out/r.pos", "the output motion");
  ASSERT_EQ(outputs.size(), 4u);  // .pos .waist .hip .zmp: written, or removed when left from a run before
  std::vector<CommandFile> with_report = outputs;
  with_report.push_back({"out/r.zmp", "the report"});
  EXPECT_NE(error_of([&] { check_output_paths({}, with_report); })
                .find("the report 'out/r.zmp' is also the output motion (.zmp) 'out/r.zmp': one would "
                      "overwrite the other"),
            std::string::npos);
  with_report.back().path = "out/r.json";
  EXPECT_NO_THROW(check_output_paths({}, with_report));
}

TEST(OutputPaths, AJobsOutputsAgainstItsInputs) {
  JobConfig job = default_job(JobKind::kSmooth);
  job.input = "walk.pos";
  job.output.path = "walk2.pos";
  job.output.report = "walk.waist";  // the input's waist file
  EXPECT_NE(error_of([&] {
              check_job_output_paths(job);
            }).find("the report 'walk.waist' is the input motion (.waist) 'walk.waist'"),
            std::string::npos);
  job.output.report = "walk2.json";
  EXPECT_NO_THROW(check_job_output_paths(job));
  job.output.path = "walk.pos";
  EXPECT_THROW(check_job_output_paths(job), UsageError);
  job.output.path = "walk2.pos";
  EXPECT_THROW(check_job_output_paths(job, {{"walk2.json", "an extra input"}}), UsageError);
}

// A report and its outputs appear together or not at all (smooth and retarget write through this).
TEST(ReportWithOutputs, AFailingOutputTakesTheReportAlong) {
  const fs::path dir = test::fresh_dir("report_with_outputs");
  Json json;
  json["ok"] = true;
  EXPECT_THROW(write_report_with_outputs(dir / "r.json", json, [] { throw OutputError("x.pos: disk full"); }),
               OutputError);
  EXPECT_TRUE(test::listing(dir).empty());
  write_report_with_outputs(dir / "r.json", json, [&] { test::spit(dir / "x.pos", "0 0\n"); });
  EXPECT_EQ(test::listing(dir), (std::vector<std::string>{"r.json", "x.pos"}));
  // No report asked for: only the outputs.
  EXPECT_NO_THROW(write_report_with_outputs({}, json, [] {}));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace mimic::io
