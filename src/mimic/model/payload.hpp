// A rigid load carried by the robot (seed 001, section VI: a bar held in the right hand), made part of
// the model: its inertia is added to the inertia of the body that holds it, so that every algorithm
// (centre of mass, ZMP, RNEA and its derivatives) accounts for it without knowing it is there.
//
// The Model stays immutable: with_payload() returns a modified copy.
#pragma once

#include <string>

#include "mimic/model/model.hpp"
#include "mimic/spatial/inertia.hpp"

namespace mimic::model {

struct Payload {
  // A URDF link or an operational frame (every URDF link is a Model frame, so one lookup serves both).
  std::string attached_to;
  // Mass, centre of mass and inertia about it, in the coordinates of `attached_to`.
  spatial::Inertia inertia;
};

// A copy of `model` whose body carrying the frame `payload.attached_to` has the payload's inertia added
// (parallel-axis theorem, spatial::Inertia::operator+=). Throws ModelError when the frame is unknown and
// std::invalid_argument for a negative mass or a non-finite value.
Model with_payload(const Model& model, const Payload& payload);

// The payload's centre of mass in the world for the body placements in `data` (forward_kinematics first).
spatial::Vec3 payload_com_in_world(const Model& model, const Data& data, const Payload& payload);

}  // namespace mimic::model
