// What `mimic info FILE` prints: a robot model (its joints with their limits, the total mass, and the
// centre of mass and operational frames in a robot description's nominal pose) or a motion-capture clip.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "mimic/mocap/load.hpp"

namespace mimic::pipeline {

// The URDF at `urdf_path`: joints in OpenHRP order when the model has exactly HRP-2's joints (else in
// the URDF's depth-first order) with their limits, the total mass, and the centre of mass in the nominal
// pose of the description at `description_path` when its joints are all in the model (else in the zero
// configuration). With a description, also the positions of its operational frames in that pose and
// its sole rectangles. An empty `description_path` gives no description.
void describe_robot(const std::string& urdf_path, const std::string& description_path, std::ostream& out);

// What `mimic info --robot NAME|FILE [--model URDF]` prints: a robot as mimic loads it from its
// description (docs/robot-description.md), so that a user can check a new robot before any motion:
//  * the model: root, joints in the description's joint_order with their limits, the held joints and
//    their values, total mass;
//  * the groups, the operational frames and the sole rectangles;
//  * the collision model: every shape (capsules fitted to meshes included) and the number of checked pairs;
//  * the standing pose report of the nominal pose: each sole's height and tilt, the centre of mass and its
//    distance inside the support polygon of both feet, the closest checked pair and the lowest sole corner.
// `urdf` (when not empty) replaces the description's urdf. Throws what loading the robot throws.
void describe_robot_description(const std::string& description_path, const std::string& urdf,
                                std::ostream& out);

// The clip at `path` (.bvh or .c3d): mocap::describe_clip. `units` and `up` override the guesses as the
// options named `units_option` / `up_option` (e.g. "--units"; "auto" keeps the guess; InputError naming the
// option for any other unknown value).
void describe_clip(const std::string& path, std::string_view units, std::string_view up, std::ostream& out,
                   std::string_view units_option, std::string_view up_option);

// The load options of a clip for `mimic info`: `units` and `up` as describe_clip takes them.
mocap::LoadOptions clip_load_options(std::string_view units, std::string_view up,
                                     std::string_view units_option, std::string_view up_option);

// `mimic info CLIP --landmarks`: the landmark mapping retargeting would use (the preset named `preset`, or
// the best shipped one, or the automatic mapping) with, per landmark, its joint or markers and how it was
// decided. InputError (one line) when no mapping fits: what was found and what is missing.
void describe_landmarks(const std::string& path, std::string_view units, std::string_view up,
                        std::string_view preset, std::ostream& out, std::string_view units_option,
                        std::string_view up_option);

// `mimic info CLIP --contacts`: the contacts read from the clip's landmarks (retarget/clip_contacts): each
// foot's support phases with their times, positions and headings, which of them are steps, the flight
// phases, the pelvis path with its travel, the step count and cadence, and a line saying whether the clip
// stands still or has flight phases. Same options as describe_landmarks; InputError when the landmarks
// lack the feet.
void describe_contacts(const std::string& path, std::string_view units, std::string_view up,
                       std::string_view preset, std::ostream& out, std::string_view units_option,
                       std::string_view up_option);

}  // namespace mimic::pipeline
