// retarget.loop_repeats (retarget/clip_loop.hpp): auto by default, a number of plays in [1, 100], anything
// else refused with the file, line and key; the job's JSON echo names it only when it is set.
#include <gtest/gtest.h>

#include "io/job_test_util.hpp"
#include "mimic/core/error.hpp"
#include "mimic/io/job.hpp"
#include "mimic/io/job_json.hpp"

namespace mimic::io {
namespace {

using test::error_of;
using test::kMinimal;

TEST(JobLoopRepeats, AutoByDefaultAndANumberAsGiven) {
  EXPECT_FALSE(parse_job(kMinimal, "job.yaml").retarget.loop_repeats.has_value());
  EXPECT_FALSE(parse_job(kMinimal + "retarget: { loop_repeats: auto }\n", "job.yaml").retarget.loop_repeats);
  const JobConfig job = parse_job(kMinimal + "retarget: { loop_repeats: 4 }\n", "job.yaml");
  ASSERT_TRUE(job.retarget.loop_repeats.has_value());
  EXPECT_EQ(*job.retarget.loop_repeats, 4);
  Json echo = job_to_json(job);
  EXPECT_EQ(echo["retarget"]["loop_repeats"].dump(), "4");
  // Auto is not echoed: the report of a job that does not set the key is as before it existed.
  Json auto_echo = job_to_json(parse_job(kMinimal, "job.yaml"));
  EXPECT_EQ(auto_echo["retarget"].dump().find("loop_repeats"), std::string::npos);
}

TEST(JobLoopRepeats, OutOfRangeOrNotANumberIsRefusedAtItsLine) {
  EXPECT_EQ(error_of(kMinimal + "retarget: { loop_repeats: 0 }\n"),
            "job.yaml:line 4: retarget.loop_repeats: 0 times is below the minimum 1 times");
  EXPECT_EQ(error_of(kMinimal + "retarget: { loop_repeats: 101 }\n"),
            "job.yaml:line 4: retarget.loop_repeats: 101 times is above the maximum 100 times");
  EXPECT_EQ(error_of(kMinimal + "retarget:\n  loop_repeats: often\n"),
            "job.yaml:line 5: retarget.loop_repeats: expected auto or a number of times, found 'often'");
  EXPECT_NE(
      error_of(kMinimal + "retarget:\n  loop_repeats: 2.5\n").find("job.yaml:line 5: retarget.loop_repeats"),
      std::string::npos);
}

}  // namespace
}  // namespace mimic::io
