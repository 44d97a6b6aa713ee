// An infeasible smoothing stops at its first solve: the shipped bar walk's first second (standing) with the
// torque limits at a tenth of their ratings cannot be smoothed (its standing torques reach 0.19 of the
// ratings, under twice the factored limits, so the pre-check of smooth_motion lets it through). The first
// solve ends infeasible; before motion::RefineOptions::stop_when_infeasible the refinement then added 180
// violating samples and solved again from that point, which went further out (violation 1.3 -> 2.1) and
// named a velocity row of the second problem. Now `smooth` exits 4 after one solve, with one error line
// naming the first solve's worst row (family, joint, time), and writes nothing.
#include <gtest/gtest.h>

#include "cli/run_mimic.hpp"

namespace mimic::test {
namespace {

TEST(CliInfeasibleSmooth, StopsAfterTheFirstInfeasibleSolveNamingItsWorstRow) {
  TempDir dir;
  // The first 201 samples (1 s at 200 Hz) of the planned bar walk, with its waist file.
  for (const char* extension : {".pos", ".waist"}) {
    std::istringstream full(read_text(sample(std::string("data/motions/walk_bar_planned") + extension)));
    std::string cut;
    std::string line;
    for (int i = 0; i < 201 && std::getline(full, line); ++i) cut += line + "\n";
    write_text(dir / (std::string("cut") + extension), cut);
  }
  const auto job = dir / "job.yaml";
  write_text(job,
             "job: smooth\ninput: cut.pos\noutput:\n  path: out.pos\n  report: out.json\n"
             "limits:\n  torque_factor: 0.1\n");
  const RunResult r = run_mimic({"smooth", "--config", job.string()});
  EXPECT_EQ(r.exit_code, 4) << r.describe();
  // One solve: no refinement round after it.
  EXPECT_EQ(r.err.find("violating samples added"), std::string::npos) << r.describe();
  std::vector<std::string> errors;
  for (const std::string& line : nonempty_lines(r.err))
    if (line.rfind("[error] ", 0) == 0) errors.push_back(line);
  ASSERT_EQ(errors.size(), 1u) << r.describe();
  for (const char* part : {"smoothing: solver infeasible: worst violated constraint: ", "torque", "t="})
    EXPECT_NE(errors[0].find(part), std::string::npos) << part << "\n" << r.describe();
  EXPECT_EQ(list_dir(dir.path()), (std::vector<std::string>{"cut.pos", "cut.waist", "job.yaml"}));
}

}  // namespace
}  // namespace mimic::test
