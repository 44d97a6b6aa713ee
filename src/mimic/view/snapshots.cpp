#include "mimic/view/snapshots.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "mimic/core/error.hpp"
#include "mimic/pipeline/plot.hpp"

namespace mimic::view {
namespace {

namespace fs = std::filesystem;

// The last line of Chromium's standard error that is not one of its routine complaints about a missing
// D-Bus (a container has none), for an error message.
std::string last_error_line(const std::string& text) {
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find("dbus") == std::string::npos && line.find_first_not_of(" \t\r") != std::string::npos)
      last = line;
  return last;
}

// A time as the page's hash reads it ("1.25").
std::string time_text(double t) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6f", t);
  return buffer;
}

// An empty folder of its own for one Chromium profile (removed by the caller).
fs::path make_profile_dir() {
  std::string pattern = (fs::temp_directory_path() / "mimic-chromium-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw OutputError("cannot create a folder for Chromium's profile in " +
                      fs::temp_directory_path().string());
  return pattern;
}

void screenshot(const fs::path& chromium, const fs::path& profile, const std::string& page,
                const fs::path& png, int width, int height) {
  const std::string url = page + "&w=" + std::to_string(width) + "&h=" + std::to_string(height);
  const fs::path shot = profile / "shot.png";
  std::error_code ec;
  fs::remove(shot, ec);
  std::string errors;
  // The virtual time budget lets the page's load and its one synchronous render finish before the shot.
  const int status = pipeline::run_program(
      chromium,
      chromium_arguments(
          profile,
          {"--hide-scrollbars", "--window-size=" + std::to_string(width) + "," + std::to_string(height),
           "--virtual-time-budget=10000", "--screenshot=" + shot.string()},
          url),
      profile, &errors);
  if (status != 0 || !fs::is_regular_file(shot))
    throw OutputError(png.string() + ": Chromium failed (exit status " + std::to_string(status) +
                      "): " + last_error_line(errors));
  fs::copy_file(shot, png, fs::copy_options::overwrite_existing, ec);
  if (ec) throw OutputError(png.string() + ": cannot write: " + ec.message());
}

// file:// URL of a path, with every byte other than an unreserved one or '/' percent-encoded.
std::string file_url(const fs::path& path) {
  std::string url = "file://";
  for (unsigned char c : fs::absolute(path).lexically_normal().string()) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      url += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      url += escaped;
    }
  }
  return url;
}

}  // namespace

fs::path chromium_path() {
  if (const char* env = std::getenv("MIMIC_CHROMIUM"); env != nullptr && *env != '\0')
    return pipeline::find_program(env);
  return pipeline::find_program("chromium");
}

fs::path required_chromium() {
  const fs::path chromium = chromium_path();
  if (chromium.empty())
    throw OutputError(
        "chromium not found: install the Debian package chromium (or set MIMIC_CHROMIUM) for --png / "
        "--strip");
  return chromium;
}

std::vector<std::string> chromium_arguments(const fs::path& profile, const std::vector<std::string>& extra,
                                            const std::string& url) {
  // SwiftShader is Chromium's own software renderer: WebGL then works without a GPU or a display, the same
  // on every machine (newer Chromium refuses the silent fallback to it without --enable-unsafe-swiftshader).
  std::vector<std::string> args = {"--headless",
                                   "--disable-gpu",
                                   "--use-angle=swiftshader",
                                   "--enable-unsafe-swiftshader",
                                   "--no-first-run",
                                   "--disable-extensions",
                                   "--user-data-dir=" + profile.string()};
  // No sandbox: Chromium will not start with it as root, nor where a container denies it the user
  // namespaces it needs (CI); what it opens is mimic's own page, which fetches nothing.
  args.push_back("--no-sandbox");
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(url);
  return args;
}

std::vector<fs::path> snapshot_paths(const fs::path& dir, const std::string& stem, int frames) {
  std::vector<fs::path> paths;
  for (int i = 1; i <= frames; ++i) {
    char number[16];
    std::snprintf(number, sizeof number, "_%02d.png", i);
    paths.push_back(dir / (stem + number));
  }
  paths.push_back(dir / (stem + "_strip.png"));
  return paths;
}

std::vector<fs::path> write_snapshots(const fs::path& html, const fs::path& dir, double t0, double t1,
                                      const SnapshotOptions& options) {
  const fs::path chromium = required_chromium();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw OutputError(dir.string() + ": cannot create the snapshot folder: " + ec.message());
  const std::vector<fs::path> paths = snapshot_paths(dir, html.stem().string(), options.frames);
  const std::string page = file_url(html);
  const fs::path profile = make_profile_dir();
  try {
    for (int i = 0; i < options.frames; ++i) {
      const double t = options.frames == 1 ? t0 : t0 + (t1 - t0) * i / (options.frames - 1);
      screenshot(chromium, profile, page + "#t=" + time_text(t) + "&snapshot",
                 paths[static_cast<std::size_t>(i)], options.width, options.height);
    }
    screenshot(chromium, profile, page + "#strip=" + std::to_string(options.frames) + "&snapshot",
               paths.back(), options.width * options.frames / 2, options.height / 2);
  } catch (...) {
    fs::remove_all(profile, ec);
    throw;
  }
  fs::remove_all(profile, ec);
  return paths;
}

}  // namespace mimic::view
