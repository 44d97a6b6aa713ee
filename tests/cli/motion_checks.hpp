// Assertions on the motion files `mimic` writes (X.pos, X.waist, X.zmp): they exist, load back with the
// library's reader, and have the layout hrpsys expects (200 Hz, 30 joint columns, equal sample times).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>

#include "cli/run_mimic.hpp"
#include "mimic/io/motion_files.hpp"

namespace mimic::test {

// Number of whitespace-separated fields on the first line of `path`.
inline int first_line_fields(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::istringstream fields(line);
  int n = 0;
  for (std::string f; fields >> f;) ++n;
  return n;
}

// X.pos, X.waist and X.zmp beside `pos` exist and load back together; 200 Hz; `columns` joint columns.
// Returns the motion (empty on failure) for further checks.
inline io::MotionFiles expect_motion_files(const std::filesystem::path& pos, int columns = 30) {
  io::MotionFiles motion;
  const std::filesystem::path base = io::motion_base(pos);
  for (const char* ext : {".pos", ".waist", ".zmp"}) {
    EXPECT_TRUE(std::filesystem::is_regular_file(io::motion_file(base, ext)))
        << io::motion_file(base, ext) << " missing";
  }
  EXPECT_FALSE(std::filesystem::exists(io::motion_file(base, ".hip"))) << "no .hip expected beside " << pos;
  try {
    motion = io::read_motion(base);
  } catch (const std::exception& e) {
    ADD_FAILURE() << pos << " does not load back: " << e.what();
    return {};
  }
  EXPECT_EQ(first_line_fields(pos), 1 + columns) << pos;
  EXPECT_EQ(motion.pos.angles.cols(), 30) << pos;
  EXPECT_GT(motion.pos.size(), 10) << pos;
  EXPECT_TRUE(motion.pos.angles.allFinite()) << pos;
  EXPECT_TRUE(motion.waist.has_value()) << pos << ": .waist not read";
  EXPECT_TRUE(motion.zmp.has_value()) << pos << ": .zmp not read";
  if (motion.waist) {
    EXPECT_EQ(motion.waist->size(), motion.pos.size());
  }
  if (motion.zmp) {
    EXPECT_EQ(motion.zmp->size(), motion.pos.size());
  }
  // 200 Hz: every step is 5 ms. The writers put sample k at k x 5 ms: the first time is 0 (1e-9 s: no
  // more than the nanosecond the files are printed to), and the steps measured on the retarget, walk and
  // smooth outputs differ from 5 ms by at most 2.6e-15 s (the rounding of k x 0.005 near 21 s); 1e-12 s
  // leaves room for longer motions and still catches a grid off by a nanosecond.
  const auto& t = motion.pos.times;
  if (t.size() >= 2) {
    EXPECT_NEAR(t.front(), 0.0, 1e-9) << pos;
    double worst = 0.0;
    for (std::size_t k = 1; k < t.size(); ++k) worst = std::max(worst, std::abs(t[k] - t[k - 1] - 0.005));
    EXPECT_LT(worst, 1e-12) << pos << ": not sampled at 200 Hz";
  }
  return motion;
}

// `mimic check` accepts the motion (exit 0, "OK" on stdout).
inline void expect_check_passes(const std::filesystem::path& pos,
                                const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"check", pos.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const RunResult r = run_mimic(args);
  EXPECT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_NE(r.out.find("OK: every limit holds"), std::string::npos) << r.describe();
}

}  // namespace mimic::test
