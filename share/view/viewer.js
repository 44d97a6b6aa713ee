// The viewer of `mimic view`: plays the scene of view/scene.hpp (MIMIC_SCENE) with three.js r111.
// Every body placement comes computed from the C++ side; the page only places meshes. World: z up, metres.
(function () {
  "use strict";
  var S = MIMIC_SCENE;
  // Placements and reference origins come as integers of S.fixed_unit (view/page.hpp).
  function unpack(rows) {
    return rows.map(function (row) {
      var out = new Float64Array(row.length);
      for (var i = 0; i < row.length; ++i) out[i] = row[i] * S.fixed_unit;
      return out;
    });
  }
  S.placements = unpack(S.placements);
  S.reference = unpack(S.reference);
  var frames = S.times.length;
  var nb = S.bodies.length;
  var BACKGROUND = 0xf4f4f4;
  var ROBOT = 0xa9b9cc, VIOLATION = 0xe00000, SUPPORT = 0x2e9e3e, ZMP = 0xd02090, REFERENCE = 0xe08a00;

  // Page mode from the hash: "t=1.25&snapshot", "strip=8&snapshot", "selftest".
  var params = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (item) {
    if (!item) return;
    var kv = item.split("=");
    params[decodeURIComponent(kv[0])] = kv.length > 1 ? decodeURIComponent(kv[1]) : "";
  });
  var snapshot = "snapshot" in params, selftest = "selftest" in params;
  if (snapshot || selftest) document.body.className = "snapshot";

  var container = document.getElementById("view");
  var renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setClearColor(BACKGROUND, 1);
  container.appendChild(renderer.domElement);
  var scene = new THREE.Scene();
  var camera = new THREE.PerspectiveCamera(30, 1, 0.05, 100);
  camera.up.set(0, 0, 1);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x707070, 0.85));
  var sun = new THREE.DirectionalLight(0xffffff, 0.55);
  sun.position.set(2, -3, 5);
  scene.add(sun);

  // Ground: an 8 m grid of 0.25 m squares about the first frame's base.
  var base0 = new THREE.Vector3(S.placements[0][0], S.placements[0][1], 0);
  var grid = new THREE.GridHelper(8, 32, 0xa0a0a0, 0xc8c8c8);
  grid.rotation.x = Math.PI / 2;
  grid.position.set(Math.round(base0.x), Math.round(base0.y), S.support.length ? S.support[0][0] : 0);
  scene.add(grid);

  // The robot: one group per body, holding its collision shapes (capsules, boxes) in the body frame; each
  // body has its own material so that a violation can colour it alone.
  var bodyGroups = [], bodyMaterials = [];
  for (var b = 0; b < nb; ++b) {
    var group = new THREE.Group();
    group.matrixAutoUpdate = true;
    scene.add(group);
    bodyGroups.push(group);
    bodyMaterials.push(new THREE.MeshLambertMaterial({ color: ROBOT }));
  }
  var Y = new THREE.Vector3(0, 1, 0);
  S.shapes.forEach(function (shape) {
    var material = bodyMaterials[shape.body], group = bodyGroups[shape.body];
    if (shape.type === "capsule") {
      var a = new THREE.Vector3().fromArray(shape.a), bEnd = new THREE.Vector3().fromArray(shape.b);
      var axis = new THREE.Vector3().subVectors(bEnd, a), length = axis.length();
      if (length > 1e-6) {
        var cylinder = new THREE.Mesh(new THREE.CylinderGeometry(shape.radius, shape.radius, length, 20, 1, true),
                                      material);
        cylinder.position.addVectors(a, bEnd).multiplyScalar(0.5);
        cylinder.quaternion.setFromUnitVectors(Y, axis.normalize());
        group.add(cylinder);
      }
      [a, bEnd].forEach(function (end) {
        var sphere = new THREE.Mesh(new THREE.SphereGeometry(shape.radius, 20, 12), material);
        sphere.position.copy(end);
        group.add(sphere);
      });
    } else {
      var box = new THREE.Mesh(new THREE.BoxGeometry(2 * shape.half[0], 2 * shape.half[1], 2 * shape.half[2]),
                               material);
      box.position.fromArray(shape.position);
      box.quaternion.fromArray(shape.quaternion);
      group.add(box);
    }
  });

  // Thin lines between joint origins: the links without shapes (and the kinematic tree under the shapes).
  function treeLines(color, overlay) {
    var positions = new Float32Array(Math.max(nb - 1, 1) * 6);
    var geometry = new THREE.BufferGeometry();
    geometry.setAttribute("position", new THREE.BufferAttribute(positions, 3));
    var material = new THREE.LineBasicMaterial({ color: color, depthTest: !overlay, transparent: overlay });
    var lines = new THREE.LineSegments(geometry, material);
    lines.frustumCulled = false;
    if (overlay) lines.renderOrder = 2;
    scene.add(lines);
    return lines;
  }
  function setTreeLines(lines, origin) {
    var p = lines.geometry.attributes.position.array, i = 0;
    for (var body = 1; body < nb; ++body) {
      var parent = S.bodies[body].parent;
      var a = origin(parent), c = origin(body);
      p[i++] = a[0]; p[i++] = a[1]; p[i++] = a[2];
      p[i++] = c[0]; p[i++] = c[1]; p[i++] = c[2];
    }
    lines.geometry.attributes.position.needsUpdate = true;
  }
  var skeleton = treeLines(0x404040, false);
  // The kinematic reference the retarget imitated (X.reference.*), drawn over the robot.
  var reference = S.reference.length ? treeLines(REFERENCE, true) : null;

  // Support polygon (a closed line on the ground) and the ZMP (a flat disc on the ground).
  var supportPositions = new Float32Array(17 * 3);
  var supportGeometry = new THREE.BufferGeometry();
  supportGeometry.setAttribute("position", new THREE.BufferAttribute(supportPositions, 3));
  var supportMaterial = new THREE.LineBasicMaterial({ color: SUPPORT });
  var support = new THREE.Line(supportGeometry, supportMaterial);
  support.frustumCulled = false;
  scene.add(support);
  var zmpMaterial = new THREE.MeshBasicMaterial({ color: ZMP });
  var zmp = new THREE.Mesh(new THREE.CylinderGeometry(0.018, 0.018, 0.004, 24), zmpMaterial);
  zmp.rotation.x = Math.PI / 2;
  scene.add(zmp);

  // Violations per frame: the bodies to colour and whether the ZMP is among them.
  var frameBodies = [], frameZmp = new Uint8Array(frames), frameLabels = [], flagged = new Uint8Array(frames);
  for (var f = 0; f < frames; ++f) { frameBodies.push([]); frameLabels.push([]); }
  S.violations.forEach(function (v) {
    v.frames.forEach(function (frame) {
      flagged[frame] = 1;
      frameLabels[frame].push(v.label);
      if (v.kind === "zmp") frameZmp[frame] = 1;
      v.bodies.forEach(function (body) { frameBodies[frame].push(body); });
    });
  });

  // The orbit camera: azimuth / elevation / distance about a target that follows the base (side view from
  // the robot's right at the start: the robot's forward axis x points to the right of the picture).
  var orbit = { azimuth: -Math.PI / 2, elevation: 0.22, distance: 4.6 };
  var target = new THREE.Vector3();
  function placeCamera() {
    var ce = Math.cos(orbit.elevation);
    camera.position.set(target.x + orbit.distance * ce * Math.cos(orbit.azimuth),
                        target.y + orbit.distance * ce * Math.sin(orbit.azimuth),
                        target.z + orbit.distance * Math.sin(orbit.elevation));
    camera.lookAt(target);
  }

  var current = 0;
  function origin(frame) {
    var p = S.placements[frame];
    return function (body) { return body < 0 ? [p[0], p[1], p[2]] : [p[7 * body], p[7 * body + 1], p[7 * body + 2]]; };
  }
  function setFrame(frame) {
    current = Math.max(0, Math.min(frames - 1, frame));
    var p = S.placements[current];
    for (var body = 0; body < nb; ++body) {
      var k = 7 * body;
      bodyGroups[body].position.set(p[k], p[k + 1], p[k + 2]);
      bodyGroups[body].quaternion.set(p[k + 3], p[k + 4], p[k + 5], p[k + 6]);
      bodyMaterials[body].color.setHex(ROBOT);
    }
    frameBodies[current].forEach(function (body) { bodyMaterials[body].color.setHex(VIOLATION); });
    setTreeLines(skeleton, origin(current));
    if (reference) {
      var r = S.reference[current];
      setTreeLines(reference, function (body) {
        var i = 3 * Math.max(body, 0);
        return [r[i], r[i + 1], r[i + 2]];
      });
    }
    var polygon = S.support[current] || [0];
    var ground = polygon[0], corners = (polygon.length - 1) / 2;
    for (var i = 0; i <= corners && corners > 0; ++i) {
      var c = i % corners;
      supportPositions[3 * i] = polygon[1 + 2 * c];
      supportPositions[3 * i + 1] = polygon[2 + 2 * c];
      supportPositions[3 * i + 2] = ground + 0.002;
    }
    supportGeometry.setDrawRange(0, corners > 0 ? corners + 1 : 0);
    supportGeometry.attributes.position.needsUpdate = true;
    supportMaterial.color.setHex(frameZmp[current] ? VIOLATION : SUPPORT);
    var z = S.zmp[current];
    zmp.visible = z[0] !== null;
    if (zmp.visible) zmp.position.set(z[0], z[1], ground + 0.003);
    zmpMaterial.color.setHex(frameZmp[current] ? VIOLATION : ZMP);
    // The base's height splits a standing robot about in two: aim a little above it to frame the head.
    target.set(p[0], p[1], 1.1 * p[2]);
    placeCamera();
    updateControls();
  }

  // Frame shown at time t: the last frame not after it.
  function frameAt(t) {
    var lo = 0, hi = frames - 1;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (S.times[mid] <= t + 1e-9) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  function resize(width, height) {
    renderer.setPixelRatio(1);
    renderer.setSize(width, height);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
  }
  function render() { renderer.render(scene, camera); }

  // --- UI -------------------------------------------------------------------------------------------
  var scrub = document.getElementById("scrub"), clock = document.getElementById("clock");
  var playButton = document.getElementById("play"), speed = document.getElementById("speed");
  var timeline = document.getElementById("timeline"), now = document.getElementById("now");
  document.getElementById("title").textContent = S.title;
  var flaggedCount = 0;
  for (var ff = 0; ff < frames; ++ff) flaggedCount += flagged[ff];
  document.getElementById("summary").textContent =
      (S.violations.length ? S.violations.length + " violation(s) found by mimic check, " + flaggedCount +
       " frame(s) marked red on the timeline" : "mimic check finds no violation") +
      (S.zmp_from_file ? "; ZMP from the .zmp file" : "; ZMP computed from the motion");
  scrub.max = String(frames - 1);
  function updateControls() {
    scrub.value = String(current);
    clock.textContent = "t = " + S.times[current].toFixed(3) + " s   sample " + S.samples[current] +
                        "   frame " + (current + 1) + "/" + frames;
    now.textContent = frameLabels[current].join(", ");
    drawTimeline();
  }
  function drawTimeline() {
    var width = timeline.clientWidth || 1, height = timeline.clientHeight || 1;
    if (timeline.width !== width) timeline.width = width;
    if (timeline.height !== height) timeline.height = height;
    var g = timeline.getContext("2d");
    g.fillStyle = "#cfcfcf";
    g.fillRect(0, 0, width, height);
    g.fillStyle = "#e00000";
    var step = width / Math.max(frames, 1);
    for (var i = 0; i < frames; ++i)
      if (flagged[i]) g.fillRect(Math.floor(i * step), 0, Math.max(1, Math.ceil(step)), height);
    g.fillStyle = "#000000";
    g.fillRect(Math.floor((current + 0.5) * step) - 1, 0, 2, height);
  }
  timeline.addEventListener("click", function (e) {
    var rect = timeline.getBoundingClientRect();
    setFrame(Math.floor((e.clientX - rect.left) / rect.width * frames));
    playTime = S.times[current];
  });

  var playing = false, playTime = S.times[0], last = null;
  scrub.addEventListener("input", function () {
    setFrame(parseInt(scrub.value, 10));
    playTime = S.times[current];
  });
  playButton.addEventListener("click", function () {
    playing = !playing;
    playButton.textContent = playing ? "Pause" : "Play";
    if (playing && current === frames - 1) playTime = S.times[0];
    last = null;
  });
  function tick(stamp) {
    if (playing) {
      if (last !== null) playTime += (stamp - last) / 1000 * parseFloat(speed.value);
      last = stamp;
      if (playTime > S.times[frames - 1]) {
        playTime = S.times[frames - 1];
        playing = false;
        playButton.textContent = "Play";
      }
      setFrame(frameAt(playTime));
    }
    render();
    requestAnimationFrame(tick);
  }

  // Mouse orbit: drag to turn, wheel to zoom.
  var drag = null;
  renderer.domElement.addEventListener("mousedown", function (e) { drag = { x: e.clientX, y: e.clientY }; });
  window.addEventListener("mouseup", function () { drag = null; });
  window.addEventListener("mousemove", function (e) {
    if (!drag) return;
    orbit.azimuth -= (e.clientX - drag.x) * 0.01;
    orbit.elevation = Math.max(-0.1, Math.min(1.5, orbit.elevation + (e.clientY - drag.y) * 0.01));
    drag = { x: e.clientX, y: e.clientY };
    placeCamera();
  });
  renderer.domElement.addEventListener("wheel", function (e) {
    e.preventDefault();
    orbit.distance = Math.max(0.5, Math.min(30, orbit.distance * Math.exp(e.deltaY * 0.001)));
    placeCamera();
  }, { passive: false });

  // --- Modes --------------------------------------------------------------------------------------
  // Pixels of the canvas that differ from `other` (both RGBA arrays of the same size).
  function readPixels(width, height) {
    var gl = renderer.getContext(), pixels = new Uint8Array(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    return pixels;
  }
  function differing(a, b) {
    var count = 0;
    for (var i = 0; i < a.length; i += 4)
      if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) > 24) ++count;
    return count;
  }
  // Only the robot's shapes in the picture (the ground, lines, polygon and ZMP hidden), or everything.
  function shapesOnly(only) {
    [grid, skeleton, support, zmp].concat(reference ? [reference] : []).forEach(function (o) { o.visible = !only; });
  }

  function runSelftest() {
    // The robot's pixels: its shapes alone at the first frame against an empty picture; motion: its shapes
    // at the first and at the middle frame, seen from one fixed camera. Both without the ground and the
    // lines, which would count even with no robot drawn or moved.
    var width = 320, height = 240, result = { frames: frames, width: width, height: height };
    resize(width, height);
    setFrame(0);
    shapesOnly(true);
    render();
    var first = readPixels(width, height);
    bodyGroups.forEach(function (g) { g.visible = false; });
    render();
    var empty = readPixels(width, height);
    bodyGroups.forEach(function (g) { g.visible = true; });
    result.robotPixels = differing(first, empty);
    var fixedCamera = camera.position.clone(), fixedTarget = target.clone();
    var later = Math.floor(frames / 2);
    setFrame(later);
    camera.position.copy(fixedCamera);
    camera.lookAt(fixedTarget);
    render();
    result.movedPixels = differing(first, readPixels(width, height));
    shapesOnly(false);
    result.laterFrame = later;
    result.violations = S.violations.length;
    result.errors = window.mimicErrors.slice();
    var out = document.getElementById("selftest");
    out.textContent = JSON.stringify(result);
    out.hidden = false;
  }

  // One picture, or N evenly spaced ones side by side in one canvas (the strip of seed 000's Fig. 3).
  function runSnapshot() {
    // The size comes with the URL: a headless window's inner size is not yet the screenshot's at load.
    var width = parseInt(params.w || "0", 10) || window.innerWidth, height = parseInt(params.h || "0", 10) || window.innerHeight;
    resize(width, height);
    var count = parseInt(params.strip || "0", 10);
    if (!(count > 0)) {
      setFrame(frameAt(parseFloat(params.t || String(S.times[0]))));
      render();
      return;
    }
    renderer.setScissorTest(true);
    var slot = width / count;
    // Each picture centred on the robot's base, all from the same side and distance.
    for (var i = 0; i < count; ++i) {
      var frame = count === 1 ? 0 : Math.round(i * (frames - 1) / (count - 1));
      setFrame(frame);
      camera.aspect = slot / height;
      camera.updateProjectionMatrix();
      var x = Math.round(i * slot), w = Math.round((i + 1) * slot) - x;
      renderer.setViewport(x, 0, w, height);
      renderer.setScissor(x, 0, w, height);
      render();
    }
    renderer.setScissorTest(false);
  }

  if (selftest) {
    runSelftest();
  } else if (snapshot) {
    runSnapshot();
  } else {
    var fit = function () { resize(container.clientWidth, container.clientHeight); drawTimeline(); };
    window.addEventListener("resize", fit);
    fit();
    setFrame(params.t ? frameAt(parseFloat(params.t)) : 0);
    playTime = S.times[current];
    requestAnimationFrame(tick);
  }
})();
