// Sample budget of the stages that produce a sampled motion (issue 17): a retarget's re-timed reference
// at trajectory.output_rate and a walking pattern at its control period. Before such a motion is made,
// its sample count (duration times rate) is compared with kMaxSamples and a larger one refused with a
// BudgetError (exit code 3) naming the duration, the rate and the setting. One million samples (83
// minutes at 200 Hz) is far beyond any clip the commands are meant for and, at the 30 joints, waist and
// ZMP of a sample, a few hundred MB; the trajectory problems built on such a motion have their own
// memory budget (motion/problem_budget.hpp).
#pragma once

#include <string>

namespace mimic::pipeline {

inline constexpr double kMaxSamples = 1e6;

// Throws BudgetError when duration * rate + 1 exceeds kMaxSamples (or is not finite). `what` starts the
// message ("retarget: the re-timed reference"), `setting` names where the rate comes from
// ("trajectory.output_rate").
void check_sample_budget(const std::string& what, double duration, double rate, const std::string& setting);

}  // namespace mimic::pipeline
