#include "mimic/model/payload.hpp"

#include <stdexcept>

namespace mimic::model {

Model with_payload(const Model& model, const Payload& payload) {
  const spatial::Inertia& y = payload.inertia;
  if (!(y.mass >= 0.0) || !y.com.allFinite() || !y.inertia_com.allFinite())
    throw std::invalid_argument("with_payload: the payload of '" + payload.attached_to +
                                "' needs a mass >= 0 and finite centre of mass and inertia");
  const Frame& frame = model.frames[static_cast<std::size_t>(model.frame_index(payload.attached_to))];
  Model loaded = model;
  // The frame is rigidly attached to its body: express the payload in the body frame and merge it.
  loaded.inertias[static_cast<std::size_t>(frame.body)] += frame.placement.act(y);
  return loaded;
}

spatial::Vec3 payload_com_in_world(const Model& model, const Data& data, const Payload& payload) {
  const Frame& frame = model.frames[static_cast<std::size_t>(model.frame_index(payload.attached_to))];
  return data.oMi[static_cast<std::size_t>(frame.body)].act(frame.placement.act(payload.inertia.com));
}

}  // namespace mimic::model
