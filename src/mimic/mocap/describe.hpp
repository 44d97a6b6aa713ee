// Human-readable summary of a mocap file, used by `mimic info CLIP`.
#pragma once

#include <filesystem>
#include <ostream>

#include "mimic/mocap/clip.hpp"
#include "mimic/mocap/load.hpp"

namespace mimic::mocap {

// Loads `path` and prints the skeleton (indented joint tree with channels) or the marker list (with
// the share of valid samples), then frames, rate, duration, source units and up axis and how they
// were found. Throws InputError like load_clip.
void describe_clip(const std::filesystem::path& path, std::ostream& out, const LoadOptions& options = {});

// The same for a clip already loaded.
void describe_clip(const Clip& clip, std::ostream& out);

}  // namespace mimic::mocap
