// Looping clips end to end (retarget/clip_loop): MakeHuman's walk cycle (../shared/mocap, skipped visibly
// when absent) is played six times and walked by the whole-body retarget, which exits 0 and whose output
// passes `mimic check` with the contacts detected on it; `retarget.loop_repeats` plays it as often as the
// job says, and is refused on a clip that is no loop.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "cli/run_mimic.hpp"
#include "support/shared_data.hpp"

namespace mimic::test {
namespace {

void write_job(const std::filesystem::path& path, const std::filesystem::path& input,
               const std::string& extra) {
  std::ofstream out(path);
  out << "job: retarget\ninput: " << input.string()
      << "\noutput: out/x.pos\nretarget:\n  kinematic_only: true\n"
      << extra;
}

TEST(CliClipLoop, MakeHumanWalkCycleIsWalkedAndPassesTheCheck) {
  MIMIC_REQUIRE_SHARED(clip, "mocap/bvh/makehuman__walk1.bvh");
  TempDir dir;
  const auto pos = dir / "walk1.pos";
  const RunResult r = run_mimic({"retarget", clip.string(), "--whole-body", "-o", pos.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(
      r.out.find(
          "loop: 0.583 s cycle (14 frames) played 6 times (2 steps a cycle; auto: enough for 12 steps)"),
      std::string::npos)
      << r.describe();
  // The check reads the support phases from the robot's soles (no job contacts): the motion as written.
  const RunResult check = run_mimic({"check", pos.string()});
  EXPECT_EQ(check.exit_code, 0) << check.describe();
}

TEST(CliClipLoop, LoopRepeatsPlaysTheLoopAsOftenAsTheJobSays) {
  MIMIC_REQUIRE_SHARED(clip, "mocap/bvh/makehuman__walk1.bvh");
  TempDir dir;
  write_job(dir / "job.yaml", clip, "  loop_repeats: 2\n");
  const RunResult r = run_mimic({"retarget", "--config", "job.yaml"}, dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("loop: 0.583 s cycle (14 frames) played 2 times (retarget.loop_repeats)"),
            std::string::npos)
      << r.describe();
}

TEST(CliClipLoop, LoopRepeatsOnAClipThatIsNoLoopIsRefused) {
  TempDir dir;
  write_job(dir / "job.yaml", sample("data/mocap/boxing.bvh"), "  loop_repeats: 3\n");
  const RunResult r = run_mimic({"-q", "retarget", "--config", "job.yaml"}, dir.path());
  EXPECT_EQ(r.exit_code, 3) << r.describe();
  EXPECT_NE(r.err.find("retarget.loop_repeats: the clip is no loop and cannot be played 3 times"),
            std::string::npos)
      << r.describe();
  EXPECT_FALSE(std::filesystem::exists(dir / "out" / "x.pos"));
}

}  // namespace
}  // namespace mimic::test
