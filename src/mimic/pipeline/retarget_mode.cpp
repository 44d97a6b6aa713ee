#include "mimic/pipeline/retarget_mode.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "mimic/core/error.hpp"

namespace mimic::pipeline {

RetargetModeChoice choose_retarget_mode(const retarget::LandmarkTrack& track, const io::JobConfig& job) {
  const io::RetargetMode requested = job.retarget.mode;
  const std::string clip = job.input.string();
  if (requested == io::RetargetMode::kWholeBody && job.retarget.kinematic_only) {
    throw InputError(clip +
                     ": the whole-body retarget has no kinematic-only form (retarget.kinematic_only is the "
                     "upper-body baseline): drop --kinematic-only or use --upper-body-only");
  }
  RetargetModeChoice choice;
  try {
    choice.contacts = retarget::detect_clip_contacts(track);
  } catch (const InputError& e) {
    if (requested == io::RetargetMode::kWholeBody)
      throw InputError(
          fmt::format("{}: the whole-body retarget needs the clip's footsteps: {}", clip, e.what()));
    choice.reason = "upper body: the clip's foot contacts cannot be read";
    spdlog::debug("{}: {}", clip, e.what());
    return choice;
  }
  const retarget::ClipContacts& contacts = *choice.contacts;
  const double legs = contacts.leg_length > 0.0 ? contacts.displacement / contacts.leg_length : 0.0;
  const bool walks = contacts.step_count() > 0 && legs > kWalkingDisplacement;
  switch (requested) {
    case io::RetargetMode::kWholeBody:
      choice.whole_body = true;
      choice.reason = "whole body (retarget.mode whole_body)";
      break;
    case io::RetargetMode::kUpperBody:
      choice.reason = "upper body (retarget.mode upper_body)";
      break;
    case io::RetargetMode::kAuto:
      choice.auto_chosen = true;
      if (walks && !contacts.flights.empty()) {
        // A clip that travels with both feet off the floor (running, hopping) cannot be walked; auto keeps
        // the upper body on planted feet and says why, where --whole-body refuses it below.
        choice.reason = fmt::format(
            "upper body: the clip travels {:.3f} m ({:.2f} leg lengths) but has a flight phase (both feet "
            "off "
            "the floor at t = {:.3f} s), which the whole-body retarget does not support",
            contacts.displacement, legs, contacts.flights.front().start);
        break;
      }
      if (walks && job.retarget.kinematic_only) {
        choice.reason = fmt::format(
            "upper body: the clip walks ({} step(s), the pelvis ends {:.3f} m, {:.2f} leg lengths, from its "
            "start) but --kinematic-only is the upper-body baseline",
            contacts.step_count(), contacts.displacement, legs);
        break;
      }
      choice.whole_body = walks;
      choice.evidence =
          fmt::format("{} step(s), the pelvis ends {:.3f} m ({:.2f} leg lengths) from its start ({} {:.2f})",
                      contacts.step_count(), contacts.displacement, legs, walks ? "above" : "not above",
                      kWalkingDisplacement);
      choice.reason = fmt::format("{}: {}", walks ? "whole body" : "upper body", choice.evidence);
      if (!walks) choice.evidence.clear();
      break;
  }
  // Refused here, before the kinematic retarget, as the footstep plan would refuse it after.
  if (choice.whole_body && !contacts.flights.empty()) {
    throw InputError(fmt::format(
        "{}: whole-body retarget: running and jumping are not supported (both feet off the floor at t = "
        "{:.3f} s); --upper-body-only retargets the upper body on planted feet",
        clip, contacts.flights.front().start));
  }
  if (!choice.whole_body && legs > kTravelWarning) {
    spdlog::warn(
        "{}: upper-body retarget: the robot will stand still while the human travels {:.2f} m (pelvis start "
        "to end, {} step(s)){}",
        clip, contacts.displacement, contacts.step_count(),
        contacts.flights.empty() ? "; --whole-body makes it walk"
                                 : "; its flight phase keeps the whole-body retarget from walking it");
  }
  return choice;
}

}  // namespace mimic::pipeline
