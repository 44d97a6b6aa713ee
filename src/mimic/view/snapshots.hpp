// Snapshots of a `mimic view` page (issue 18, like seed 000's Fig. 3): headless Chromium (Debian package
// chromium) opens the page in its snapshot mode and screenshots it; software WebGL (SwiftShader), so no
// GPU or display is needed.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace mimic::view {

struct SnapshotOptions {
  int frames = 8;   // pictures, evenly spaced over the motion (first and last sample included)
  int width = 360;  // px of one picture: portrait, a standing robot fills it
  int height = 540;
};

// The Chromium executable: $MIMIC_CHROMIUM when set, else `chromium` in PATH (plot.hpp find_program); empty
// when it is not there.
std::filesystem::path chromium_path();

// chromium_path(), or OutputError naming the Debian package when it is missing (before anything is written).
std::filesystem::path required_chromium();

// The options every headless run of a page takes: software WebGL, no sandbox (root and containers refuse
// it), a profile folder of its own, `extra` flags, then the URL.
std::vector<std::string> chromium_arguments(const std::filesystem::path& profile,
                                            const std::vector<std::string>& extra, const std::string& url);

// The picture names written by write_snapshots: DIR/<stem>_01.png .. DIR/<stem>_NN.png, then
// DIR/<stem>_strip.png (all N side by side).
std::vector<std::filesystem::path> snapshot_paths(const std::filesystem::path& dir, const std::string& stem,
                                                  int frames);

// Screenshots `html` at `frames` evenly spaced times in [t0, t1] and the strip of all of them into `dir`
// (created when missing), named as snapshot_paths(). OutputError when Chromium is missing (naming the Debian
// package), fails or writes no picture.
std::vector<std::filesystem::path> write_snapshots(const std::filesystem::path& html,
                                                   const std::filesystem::path& dir, double t0, double t1,
                                                   const SnapshotOptions& options = {});

}  // namespace mimic::view
