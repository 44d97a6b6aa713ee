// The page of `mimic view` in headless Chromium (Debian package chromium, software WebGL): it loads without
// an error, draws the robot and moves it. The page's #selftest mode (share/view/viewer.js runSelftest)
// renders the robot's shapes alone at the first frame, an empty picture and the shapes at the middle frame
// from the same camera, counts the pixels that differ, and writes the counts and every error it caught
// (window.onerror, console.error) as JSON into the DOM, which `chromium --dump-dom` prints; the page marks
// any error on <html data-mimic-errors> in every mode. Chromium's own log (--enable-logging=stderr) is
// checked for uncaught exceptions too.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>

#include "cli/run_mimic.hpp"
#include "mimic/view/snapshots.hpp"
#include "support/required_tool.hpp"

namespace mimic::test {
namespace {

namespace fs = std::filesystem;

// The robot's shapes (the self-test hides the ground and the lines) cover 2158 px of the 320 x 240 picture
// of the planned walk's first frame; none when the shapes are not drawn (tried: 0). 1200 asks for most of
// them and leaves room for a smaller robot.
constexpr int kMinRobotPixels = 1200;
// Between the first and the middle frame the robot has walked ~0.6 m: 4959 px change; 8 when the page
// keeps the first frame's placements (tried: a few pixels of colour). 500 is a few limbs' worth.
constexpr int kMinMovedPixels = 500;

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct PageRun {
  std::string dom, log;
};

// `chromium --headless --dump-dom` of `url` with the flags mimic's snapshots use.
PageRun dump_dom(const TempDir& dir, const std::string& url) {
  const fs::path profile = dir.path() / "profile", dom = dir.path() / "dom.html",
                 log = dir.path() / "chromium.log";
  std::string command = quoted(view::chromium_path().string());
  for (const std::string& arg : view::chromium_arguments(
           profile, {"--enable-logging=stderr", "--v=0", "--dump-dom", "--virtual-time-budget=20000"}, url))
    command.append(" ").append(quoted(arg));
  command.append(" > ").append(quoted(dom.string())).append(" 2> ").append(quoted(log.string()));
  command.append(" < /dev/null");
  const int status = std::system(command.c_str());
  EXPECT_EQ(status, 0) << command << "\n" << read_text(log);
  return {read_text(dom), read_text(log)};
}

// No error caught by the page (<html data-mimic-errors>) and no uncaught exception in Chromium's log (which
// logs console messages at INFO level, so console.error is only seen by the page's own capture).
void expect_no_page_error(const PageRun& page) {
  const auto at = page.dom.find("data-mimic-errors=\"");
  EXPECT_EQ(at, std::string::npos) << page.dom.substr(at == std::string::npos ? 0 : at, 400);
  for (const std::string& line : nonempty_lines(page.log))
    EXPECT_EQ(line.find("Uncaught"), std::string::npos) << line;
}

int json_int(const std::string& json, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(json, m, std::regex("\"" + key + "\":(-?[0-9]+)"))) return -1;
  return std::stoi(m[1]);
}

TEST(ViewBrowser, ThePageLoadsDrawsTheRobotAndMovesIt) {
  MIMIC_REQUIRE_TOOL("chromium", "chromium");
  TempDir dir;
  const fs::path html = dir.path() / "walk.html";
  const RunResult r =
      run_mimic({"view", sample("data/motions/walk_bar_planned.pos").string(), "-o", html.string(),
                 "--config", sample("config/jobs/walk_bar_smooth.yaml").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  const PageRun page = dump_dom(dir, "file://" + html.string() + "#selftest");

  std::smatch m;
  ASSERT_TRUE(std::regex_search(page.dom, m, std::regex("<pre id=\"selftest\">([^<]*)</pre>")))
      << "the self-test wrote no result (the page failed before it):\n"
      << page.log;
  const std::string result = m[1];
  EXPECT_NE(result.find("\"errors\":[]"), std::string::npos) << result;
  EXPECT_GT(json_int(result, "frames"), 100) << result;
  EXPECT_GE(json_int(result, "robotPixels"), kMinRobotPixels) << result;
  EXPECT_GE(json_int(result, "movedPixels"), kMinMovedPixels) << result;
  expect_no_page_error(page);
}

TEST(ViewBrowser, TheInteractivePageRunsWithoutErrors) {
  // No hash: the page as a user opens it (controls, timeline, animation loop), for a motion with violations
  // (the walk without its job's contact phases: the feet slip) and with a reference beside it.
  MIMIC_REQUIRE_TOOL("chromium", "chromium");
  TempDir dir;
  for (const char* ext : {".pos", ".waist", ".zmp"}) {
    fs::copy_file(sample(std::string("data/motions/walk_bar_planned") + ext),
                  dir.path() / (std::string("w") + ext));
    fs::copy_file(sample(std::string("data/motions/walk_bar_planned") + ext),
                  dir.path() / (std::string("w.reference") + ext));
  }
  const RunResult r = run_mimic({"view", (dir.path() / "w.pos").string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  ASSERT_NE(r.out.find("with the reference"), std::string::npos) << r.out;
  const PageRun page = dump_dom(dir, "file://" + (dir.path() / "w.html").string());
  EXPECT_NE(page.dom.find("<span id=\"clock\">t = 0.000 s"), std::string::npos)
      << "the controls were not set up";
  EXPECT_NE(page.dom.find("violation(s) found by mimic check"), std::string::npos);
  expect_no_page_error(page);
}

TEST(ViewBrowser, AnErrorInThePageIsCaught) {
  // The self-test's error capture works: a page whose scene is broken reports the exception (so the
  // previous test's empty error list means something).
  MIMIC_REQUIRE_TOOL("chromium", "chromium");
  TempDir dir;
  const fs::path html = dir.path() / "walk.html";
  const RunResult r =
      run_mimic({"view", sample("data/motions/walk_bar_planned.pos").string(), "-o", html.string()});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  std::string text = read_text(html);
  const auto at = text.find("</head>");
  ASSERT_NE(at, std::string::npos);
  text.insert(at, "<script>MIMIC_SCENE.placements = null;</script>\n");
  const fs::path broken = dir.path() / "broken.html";
  write_text(broken, text);
  const PageRun page = dump_dom(dir, "file://" + broken.string() + "#selftest");
  EXPECT_EQ(page.dom.find("\"robotPixels\""), std::string::npos) << "the broken page drew";
  EXPECT_NE(page.log.find("Uncaught"), std::string::npos) << page.log;
  EXPECT_NE(page.dom.find("data-mimic-errors=\""), std::string::npos) << "the page did not catch its error";
}

TEST(ViewBrowser, SnapshotsAreWritten) {
  MIMIC_REQUIRE_TOOL("chromium", "chromium");
  TempDir dir;
  const fs::path html = dir.path() / "walk.html";
  const RunResult r = run_mimic({"view", sample("data/motions/walk_bar_planned.pos").string(), "-o",
                                 html.string(), "--png", (dir.path() / "shots").string(), "--frames", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  for (const char* name : {"walk_01.png", "walk_02.png", "walk_strip.png"}) {
    const fs::path png = dir.path() / "shots" / name;
    ASSERT_TRUE(fs::is_regular_file(png)) << png << "\n" << r.describe();
    const std::string bytes = read_text(png);
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8)) << png;
    // A blank 360 x 540 picture compresses to a few hundred bytes; one with the grid and robot to tens of kB.
    EXPECT_GT(bytes.size(), 10000u) << png;
  }
}

}  // namespace
}  // namespace mimic::test
