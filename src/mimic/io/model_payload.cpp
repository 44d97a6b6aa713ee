#include "mimic/io/model_payload.hpp"

namespace mimic::io {

model::Payload to_model_payload(const Payload& payload) {
  return {payload.link.empty() ? payload.frame : payload.link,
          spatial::Inertia(payload.mass, payload.com, payload.inertia)};
}

}  // namespace mimic::io
