// The whole-body retarget (issue 14; `mimic retarget` on a clip that walks, pipeline/retarget_mode.hpp):
// the robot walks where the human walked, with the human's upper body on top.
//
//   1. the kinematic retarget of seed 000 as in the upper-body mode (scale, upper-body IK, Algorithm 1
//      re-timing within the velocity limits): the upper-body joints on the robot's clock;
//   2. the clip's footsteps (retarget/clip_contacts.hpp, read before the mode was chosen) scaled by the legs
//      (step_limits.hpp, footstep_scale: the robot's thigh and shank over the human's) and
//      clamped to the robot's reach, their timing mapped through the re-timing and stretched where the
//      robot cannot keep up (pipeline/clip_footstep_plan.hpp), from the feet of the reference's first
//      sample (the nominal stance);
//   3. the walking pattern (walking/walking_pattern.hpp, Kajita's preview control) on those footsteps with
//      the reference's upper-body joints as its upper body, played slowed down by the plan's stretch so
//      that arms and feet stay in sync (pipeline/whole_body_upper_body.hpp): the per-frame IK's samples
//      fitted at 1 Hz (their noise is an acceleration the legs cannot carry), kept within the joint ranges
//      (the fit's clearance rounds are not used: step 3b clears the legs by its rows);
//   3b. seed 000's retarget problem on that walk (pipeline/whole_body_upper_body_solve.hpp): the pattern's
//      waist as the given base motion and its legs as given joints, the torso, neck and arms imitating the
//      fit's joints and the reference's head and hand positions, within the joint, velocity and torque
//      limits and with the self-collision rows of the pairs they move (a hand against a swinging thigh);
//      then the walking pattern again under the solved upper body;
//   4. seed 001's smoothing of the legs and the waist (pipeline/smooth.hpp: torque objective, support-foot
//      equalities from the pattern's contact phases, torque limits and geometry rows, leg-IK projection of
//      the support feet, cart-table ZMP correction), stopped at a relative stationarity of 1e-3 and 15 ALM
//      iterations with the adaptive penalty schedule (whole_body_retarget.cpp says why);
//   5. the check of the written motion with the pattern's contacts (limits, ZMP in the moving support
//      polygon, slip, geometry).
// A stage that fails throws InfeasibleError naming the stage and why (nothing is written); flights in the
// clip (running, jumping) are an InputError of step 2.
#pragma once

#include <string>

#include "mimic/core/error.hpp"
#include "mimic/core/progress.hpp"
#include "mimic/io/job.hpp"
#include "mimic/pipeline/retarget_pipeline.hpp"
#include "mimic/pipeline/robot.hpp"
#include "mimic/retarget/clip_contacts.hpp"

namespace mimic::pipeline {

// A stage of the whole-body retarget cannot make the walk feasible for the robot. what() is the retarget's
// one-line error: "<clip>: whole-body retarget, <stage>: <reason>; nothing written". The auto mode's
// fallback (retarget_pipeline.cpp), which then writes the upper body, says the stage and the reason
// without the clip (its warning names it already) and without "nothing written" (untrue there).
class WholeBodyStageError : public InfeasibleError {
 public:
  WholeBodyStageError(const std::string& clip, std::string stage, std::string reason);
  const std::string& stage() const { return stage_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string stage_;
  std::string reason_;
};

// Steps 2-5 after the kinematic retarget already in `result.kinematic`; fills result.output (or .csv),
// result.check, the solver fields, result.whole_body and result.stages. `contacts` are the clip's.
void run_whole_body_stages(const io::JobConfig& job, const Robot& robot,
                           const retarget::ClipContacts& contacts, RetargetPipelineResult& result,
                           StageTimer& timer, const ProgressCallback& progress = {});

}  // namespace mimic::pipeline
