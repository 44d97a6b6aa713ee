// What `mimic info --robot NAME|FILE [--model URDF]` prints: a robot as mimic loads it from its
// description (docs/robot-description.md), so that a user can check a new robot before any motion:
//  * the model: root, joints in the description's joint_order with their limits, the held joints and
//    their values, total mass;
//  * the groups, the operational frames and the sole rectangles;
//  * the collision model: every shape (capsules fitted to meshes included) and the number of checked pairs;
//  * the standing pose report of the nominal pose: each sole's height and tilt, the centre of mass and its
//    distance inside the support polygon of both feet, the closest checked pair and the lowest sole corner.
#pragma once

#include <ostream>
#include <string>

namespace mimic::pipeline {

// `urdf` (when not empty) replaces the description's urdf. Throws what loading the robot throws.
void describe_robot_description(const std::string& description_path, const std::string& urdf,
                                std::ostream& out);

}  // namespace mimic::pipeline
