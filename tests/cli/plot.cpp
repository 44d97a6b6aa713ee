// `mimic plot` on a retarget output (with the reference motions `--save-reference` writes beside it):
// three figures drawn by gnuplot, the data and the script kept. Skipped visibly without gnuplot, a
// failure then under MIMIC_REQUIRE_SHARED_DATA=1 (CI).
#include <gtest/gtest.h>

#include "cli/run_mimic.hpp"
#include "support/required_tool.hpp"

namespace mimic::test {
namespace {

TEST(CliPlot, RetargetOutputWithReferences) {
  MIMIC_REQUIRE_TOOL("gnuplot", "gnuplot-nox");
  TempDir dir;
  const auto pos = dir / "boxing.pos";
  const RunResult retarget = run_mimic(
      {"-q", "retarget", sample("data/mocap/boxing.bvh").string(), "-o", pos.string(), "--save-reference"});
  ASSERT_EQ(retarget.exit_code, 0) << retarget.describe();
  ASSERT_TRUE(std::filesystem::exists(dir / "boxing.reference.pos"));
  ASSERT_TRUE(std::filesystem::exists(dir / "boxing.original.pos"));

  for (const std::string format : {"png", "svg"}) {
    const auto out = dir / ("plots_" + format);
    const RunResult r = run_mimic({"-q", "plot", pos.string(), "-o", out.string(), "--format", format});
    ASSERT_EQ(r.exit_code, 0) << r.describe();
    EXPECT_NE(r.out.find("plotted boxing, boxing.original, boxing.reference"), std::string::npos)
        << r.describe();
    for (const char* figure : {"joints", "torques", "zmp"}) {
      const auto file = out / (std::string(figure) + "." + format);
      ASSERT_TRUE(std::filesystem::is_regular_file(file)) << file << "\n" << r.describe();
      // A drawn figure of the 21 s boxing motion and its two references: measured 142 kB (zmp.png) to
      // 1.36 MB (joints.svg); 50 kB leaves a wide margin for other gnuplot versions' encoders while an
      // empty or cut-off file fails.
      EXPECT_GT(std::filesystem::file_size(file), 50000u) << file;
      const std::string head = read_text(file).substr(0, 200);
      if (format == "png") {
        EXPECT_EQ(head.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << file;
      } else {
        EXPECT_NE(head.find("<svg"), std::string::npos) << file;
      }
    }
    EXPECT_TRUE(std::filesystem::exists(out / "plot.gp"));
    EXPECT_TRUE(std::filesystem::exists(out / "torques.dat"));
  }
}

TEST(CliPlot, MissingGnuplotExits5AndWritesNothing) {
  TempDir dir;
  const RunResult r = run_mimic({"-q", "plot", sample("data/motions/walk_bar_planned.pos").string(), "-o",
                                 "plots", "--gnuplot", "/nonexistent/gnuplot"},
                                dir.path());
  EXPECT_EQ(r.exit_code, 5) << r.describe();
  EXPECT_NE(r.err.find("gnuplot not found"), std::string::npos) << r.describe();
  EXPECT_TRUE(list_dir(dir.path()).empty()) << join(list_dir(dir.path()));
}

}  // namespace
}  // namespace mimic::test
