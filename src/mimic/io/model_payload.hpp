// The job schema's payload as the model takes it. Temporary (issue 12, WP4 -> WP5): it moved here from the
// walking pattern so that motion and pipeline need not include walking code; WP5 makes the job hold a
// model::Payload and deletes this file.
#pragma once

#include "mimic/io/job.hpp"
#include "mimic/model/payload.hpp"

namespace mimic::io {

// The payload (a link or a frame, mass, com, inertia) as model::with_payload() takes it.
model::Payload to_model_payload(const Payload& payload);

}  // namespace mimic::io

namespace mimic::stability {
// The old spelling, for tests/smoothing/scenario.hpp, tests/pipeline/plot.cpp and bench/smooth.cpp, which
// other branches edit in this wave (only their include lines change here); WP5 deletes it with the file.
using io::to_model_payload;
}  // namespace mimic::stability
