#!/usr/bin/env python3
"""Generates the sample clips mimic ships: data/mocap/boxing.{bvh,c3d} and data/mocap/walk.{bvh,c3d}.

About 8 s of shadow boxing at 120 Hz, keyframed by hand here (no capture data is used): guard, jabs,
crosses, hooks, an uppercut and a few steps of footwork. The skeleton is human sized (1.71 m) and named like
the CMU database's cgspeed "MotionBuilder-friendly" BVH release (Hips, LHipJoint, LeftUpLeg, LowerBack,
Spine, Spine1, Neck, Neck1, Head, LeftShoulder, LeftArm, LeftForeArm, LeftHand, ...), in centimetres, Y up,
facing +Z, ZYX rotation channels, so that mimic's cmu-motionbuilder preset applies.

The C3D holds a full-body Vicon Plug-in Gait marker set (LFHD ... RTOE) placed on the same animated
skeleton: Intel floats, millimetres, Z up (X forward, Y left), 120 Hz, every sample valid.

How the motion is made: the torso (pelvis yaw, spine twist, lean) and the feet follow keyframes; the
hands follow keyframed targets relative to the chest and the knees/elbows follow keyframed "pole"
directions; two-link inverse kinematics turns targets into arm and leg joint rotations. Between keys the
interpolation is minimum-jerk (quintic smoothstep), so positions, velocities and accelerations are
continuous. Punches extend in 0.15-0.18 s, which makes the elbows and shoulders far faster than HRP-2's
joint velocity limits (the retargeting must slow them down; tests check elbow > 2.3 rad/s and
shoulder > 4.2 rad/s).

The walking sample (walk.bvh, walk.c3d: same skeleton, naming, units, axes and marker set) is 9.5 s at
120 Hz, planned here too: stand 1.5 s (the weight shifts from 1.05 s), a half step (0.35 m) with the right
foot, 8 steps of 0.6 m (stride 1.2 m) at 105 steps/min, i.e. 1.05 m/s, turning 40 degrees to the left over
two steps (between 2.4 and 3.6 m of the path), a closing step that puts the left foot beside the right, and
1.7 s standing; 5.15 m of path. The gait-literature values behind it: the cycle is 60 % stance and 40 %
swing, with two double supports of 10 % each, the loading response (heel strike to foot flat) taking about
the first 10 % and the heel rising from about 30-40 % (Perry and Burnfield, Gait Analysis: Normal and
Pathological Function, 2nd ed., 2010); adults walk at 91-138 steps/min with strides of 1.06-1.85 m at
0.94-1.82 m/s (Whittle, Gait Analysis: An Introduction, 4th ed., 2007: 95 % ranges, ages 18-49), so this is
a relaxed pace near the low end; the pelvis rotates about 4 degrees either way and the body's centre rises
and falls by about 5 cm at a brisker normal speed (Saunders, Inman and Eberhart, J Bone Joint Surg 1953):
here 4 degrees, 3.9 cm of pelvis bob and 3.2 cm of sway.

How the walk is made: each foot is down from heel strike to toe off and then PLANTED: it rolls over a point
that does not move, the heel (8 degrees toe-up at heel strike, flat 0.1 s later), then the whole sole, then
the ball (the toe base joint: the heel rises up to 35 degrees in the last 0.25 s, the toes stay flat), and
the two-link leg IK puts the ankle exactly where that rolling foot has it (1e-4 degree BVH rounding aside).
The swing foot lifts its ankle 13 cm above its standing height (the toe tip clears the floor by 3.7 cm or
more in mid-swing) and moves forward with zero speed at both ends but a finite acceleration (a push-off
and a heel strike: a foot that crept onto the floor would look planted frames before it touched). The
pelvis follows C2 cubic splines: along the path half way between the feet at each heel strike, up over the
stance leg and down at heel strike, sideways over the stance foot; the chest turns against the pelvis (0.7
of its rotation), the head looks along the path, the trunk leans 3 degrees, and the arms swing 16 degrees
against the legs (peak shoulder 1.2 rad/s, elbow 0.7 rad/s: well within HRP-2's limits, this clip is about
the legs). `--steps` prints the planned footsteps in mimic's axes: the ground truth of `mimic info walk.bvh
--contacts`.

Standard library only. Deterministic: running it again rewrites identical files.
Usage: scripts/make_sample_clips.py [--out DIR] [--steps]   (default DIR: data/mocap next to this script's
repository)
"""

import argparse
import math
import pathlib
import struct

RATE = 120.0
DURATION = 8.0
FRAMES = int(round(RATE * DURATION))

# ---------------------------------------------------------------------------------------------------
# Small vector and matrix helpers (3-vectors as tuples, 3x3 matrices as tuples of rows)
# ---------------------------------------------------------------------------------------------------


def add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def mul(a, s):
    return (a[0] * s, a[1] * s, a[2] * s)


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def norm(a):
    return math.sqrt(dot(a, a))


def normalize(a):
    n = norm(a)
    return mul(a, 1.0 / n)


def mat_vec(m, v):
    return (dot(m[0], v), dot(m[1], v), dot(m[2], v))


def transpose(m):
    return tuple(tuple(m[r][c] for r in range(3)) for c in range(3))


def mat_mul(a, b):
    bt = transpose(b)
    return tuple(tuple(dot(a[r], bt[c]) for c in range(3)) for r in range(3))


def from_columns(c0, c1, c2):
    return ((c0[0], c1[0], c2[0]), (c0[1], c1[1], c2[1]), (c0[2], c1[2], c2[2]))


IDENTITY = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


def rot_x(deg):
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return ((1.0, 0.0, 0.0), (0.0, c, -s), (0.0, s, c))


def rot_y(deg):
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return ((c, 0.0, s), (0.0, 1.0, 0.0), (-s, 0.0, c))


def rot_z(deg):
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return ((c, -s, 0.0), (s, c, 0.0), (0.0, 0.0, 1.0))


def frame(bone, hinge):
    """Orthonormal frame with columns (bone, hinge x bone, hinge), hinge made orthogonal to bone."""
    u = normalize(bone)
    h = normalize(sub(hinge, mul(u, dot(hinge, u))))
    return from_columns(u, cross(h, u), h)


def euler_zyx(m):
    """Angles (z, y, x) in degrees with m = Rz(z) Ry(y) Rx(x): BVH 'Zrotation Yrotation Xrotation'."""
    y = math.degrees(math.asin(max(-1.0, min(1.0, -m[2][0]))))
    x = math.degrees(math.atan2(m[2][1], m[2][2]))
    z = math.degrees(math.atan2(m[1][0], m[0][0]))
    return (z, y, x)


def unwrap(angle, previous):
    """The representative of `angle` (mod 360) closest to `previous`: no jumps between frames."""
    return angle + 360.0 * round((previous - angle) / 360.0)


# ---------------------------------------------------------------------------------------------------
# Skeleton (centimetres, Y up, facing +Z, left = +X), CMU MotionBuilder-friendly naming
# ---------------------------------------------------------------------------------------------------

# (name, parent, offset); an End Site is a name ending in "_End" and has no channels.
SKELETON = [
    ("Hips", None, (0.0, 0.0, 0.0)),
    ("LHipJoint", "Hips", (0.0, 0.0, 0.0)),
    ("LeftUpLeg", "LHipJoint", (9.0, -6.0, 0.0)),
    ("LeftLeg", "LeftUpLeg", (0.0, -42.0, 0.0)),
    ("LeftFoot", "LeftLeg", (0.0, -41.0, 0.0)),
    ("LeftToeBase", "LeftFoot", (0.0, -6.0, 12.0)),
    ("LeftToeBase_End", "LeftToeBase", (0.0, 0.0, 5.0)),
    ("RHipJoint", "Hips", (0.0, 0.0, 0.0)),
    ("RightUpLeg", "RHipJoint", (-9.0, -6.0, 0.0)),
    ("RightLeg", "RightUpLeg", (0.0, -42.0, 0.0)),
    ("RightFoot", "RightLeg", (0.0, -41.0, 0.0)),
    ("RightToeBase", "RightFoot", (0.0, -6.0, 12.0)),
    ("RightToeBase_End", "RightToeBase", (0.0, 0.0, 5.0)),
    ("LowerBack", "Hips", (0.0, 3.0, 0.0)),
    ("Spine", "LowerBack", (0.0, 12.0, 0.0)),
    ("Spine1", "Spine", (0.0, 12.0, 0.0)),
    ("Neck", "Spine1", (0.0, 20.0, 0.0)),
    ("Neck1", "Neck", (0.0, 5.0, 0.0)),
    ("Head", "Neck1", (0.0, 6.0, 0.0)),
    ("Head_End", "Head", (0.0, 18.0, 2.0)),
    ("LeftShoulder", "Spine1", (3.0, 17.0, 0.0)),
    ("LeftArm", "LeftShoulder", (15.0, 0.0, 0.0)),
    ("LeftForeArm", "LeftArm", (28.0, 0.0, 0.0)),
    ("LeftHand", "LeftForeArm", (25.0, 0.0, 0.0)),
    ("LeftFingerBase", "LeftHand", (4.0, 0.0, 0.0)),
    ("LFingers", "LeftFingerBase", (5.0, 0.0, 0.0)),
    ("LFingers_End", "LFingers", (3.0, 0.0, 0.0)),
    ("LThumb", "LeftHand", (2.0, 0.0, 3.0)),
    ("LThumb_End", "LThumb", (3.0, 0.0, 2.0)),
    ("RightShoulder", "Spine1", (-3.0, 17.0, 0.0)),
    ("RightArm", "RightShoulder", (-15.0, 0.0, 0.0)),
    ("RightForeArm", "RightArm", (-28.0, 0.0, 0.0)),
    ("RightHand", "RightForeArm", (-25.0, 0.0, 0.0)),
    ("RightFingerBase", "RightHand", (-4.0, 0.0, 0.0)),
    ("RFingers", "RightFingerBase", (-5.0, 0.0, 0.0)),
    ("RFingers_End", "RFingers", (-3.0, 0.0, 0.0)),
    ("RThumb", "RightHand", (-2.0, 0.0, 3.0)),
    ("RThumb_End", "RThumb", (-3.0, 0.0, 2.0)),
]
OFFSET = {name: offset for name, _, offset in SKELETON}
PARENT = {name: parent for name, parent, _ in SKELETON}
CHILDREN = {name: [n for n, p, _ in SKELETON if p == name] for name, _, _ in SKELETON}
ANIMATED = [name for name, _, _ in SKELETON if not name.endswith("_End")]

UPPER_ARM, FOREARM = 28.0, 25.0
THIGH, SHIN = 42.0, 41.0
ANKLE_HEIGHT = 6.0  # the ankle (LeftFoot) is 6 cm above the toe base, which is on the floor
HIPS_STANDING = 95.0

# Each limb's rest frame: bone direction and hinge (bone x pole) in the rest pose, with the elbows
# pointing down and the knees forward. The limb's global rotation is measured from this frame, so the rest
# pose has identity rotations and the elbow and knee rotate about a single local axis.
REST_POLES = {
    "LeftArm": ((1.0, 0.0, 0.0), (0.0, -1.0, 0.0)),
    "RightArm": ((-1.0, 0.0, 0.0), (0.0, -1.0, 0.0)),
    "LeftUpLeg": ((0.0, -1.0, 0.0), (0.0, 0.0, 1.0)),
    "RightUpLeg": ((0.0, -1.0, 0.0), (0.0, 0.0, 1.0)),
}
REST_FRAMES = {name: frame(bone, cross(bone, pole)) for name, (bone, pole) in REST_POLES.items()}

# ---------------------------------------------------------------------------------------------------
# Keyframe tracks with minimum-jerk interpolation
# ---------------------------------------------------------------------------------------------------


def smooth(s):
    """Quintic smoothstep: zero velocity and acceleration at both ends (minimum-jerk profile)."""
    return s * s * s * (10.0 + s * (-15.0 + 6.0 * s))


class Track:
    """Keys (time, value); value a float or a tuple. Held before the first and after the last key."""

    def __init__(self, first_value):
        self.keys = [(0.0, first_value)]

    def key(self, t, value):
        assert t > self.keys[-1][0], (t, self.keys[-1][0])
        self.keys.append((t, value))
        return self

    def hold(self, t):
        """Keep the last value until t (a key with the same value)."""
        return self.key(t, self.keys[-1][1])

    def last(self):
        return self.keys[-1][1]

    def __call__(self, t):
        keys = self.keys
        if t <= keys[0][0]:
            return keys[0][1]
        for (t0, v0), (t1, v1) in zip(keys, keys[1:]):
            if t <= t1:
                w = smooth((t - t0) / (t1 - t0))
                if isinstance(v0, tuple):
                    return tuple(a + (b - a) * w for a, b in zip(v0, v1))
                return v0 + (v1 - v0) * w
        return keys[-1][1]


# ---------------------------------------------------------------------------------------------------
# The choreography
# ---------------------------------------------------------------------------------------------------

# Hand targets relative to the chest (Spine1) in world axes, cm. Guard: fists at the chin.
GUARD_L = (9.0, 24.0, 24.0)
GUARD_R = (-11.0, 22.0, 16.0)
# Elbow pole directions: down and out in the guard and straight punches; up and out for a hook.
POLE_GUARD_L = (0.5, -1.0, 0.0)
POLE_GUARD_R = (-0.5, -1.0, 0.0)
POLE_HOOK_L = (0.7, 0.6, -0.3)
POLE_UPPERCUT_R = (-0.2, -1.0, -0.4)

STANCE_YAW = -25.0  # orthodox stance: the left shoulder leads (a negative turn about +Y brings +X forward)


class Choreography:
    def __init__(self):
        # Start standing square, hands low, facing +Z: the facing direction at frame 0 is unambiguous.
        self.hand_l = Track((21.0, -45.0, 4.0))
        self.hand_r = Track((-21.0, -45.0, 4.0))
        self.pole_l = Track(POLE_GUARD_L)
        self.pole_r = Track(POLE_GUARD_R)
        self.pelvis_yaw = Track(0.0)
        self.spine_twist = Track(0.0)
        self.lean = Track(0.0)
        self.hips_height = Track(HIPS_STANDING - 1.0)
        self.foot_l = Track((12.0, 0.0))  # ankle (x, z) on the floor, cm
        self.foot_r = Track((-12.0, 0.0))
        self.lift_l = Track(0.0)  # ankle lift above its standing height, cm
        self.lift_r = Track(0.0)
        self.foot_yaw_l = Track(0.0)
        self.foot_yaw_r = Track(0.0)
        self.hips_xz_bias = Track((0.0, 0.0))  # weight shift of the pelvis from the feet's midpoint

    # --- building blocks ---

    def guard_up(self, t):
        self.hand_l.hold(t).key(t + 0.5, GUARD_L)
        self.hand_r.hold(t).key(t + 0.5, GUARD_R)
        self.hips_height.hold(t).key(t + 0.5, 89.0)
        self.lean.hold(t).key(t + 0.5, 8.0)

    def step_into_stance(self, t):
        # Right foot steps back and out, body turns side-on.
        self.foot_r.hold(t).key(t + 0.3, (-15.0, -30.0))
        self.lift_r.hold(t).key(t + 0.15, 6.0).key(t + 0.3, 0.0)
        self.foot_l.hold(t).key(t + 0.3, (10.0, 8.0))
        self.foot_yaw_l.hold(t).key(t + 0.3, -15.0)
        self.foot_yaw_r.hold(t).key(t + 0.3, -45.0)
        self.pelvis_yaw.hold(t).key(t + 0.4, STANCE_YAW)

    def straight(self, hand, pole, t, target, out=0.15, back=0.2, pole_dir=None, torso=None):
        """A jab or a cross: to `target` in `out` seconds, a short hold, back to guard."""
        guard = hand.last()
        hand.hold(t).key(t + out, target).hold(t + out + 0.04).key(t + out + 0.04 + back, guard)
        if pole_dir is not None:
            p = pole.last()
            pole.hold(t).key(t + out, pole_dir).hold(t + out + 0.04).key(t + out + 0.04 + back, p)
        if torso is not None:
            yaw, twist = torso
            y0, w0 = self.pelvis_yaw.last(), self.spine_twist.last()
            self.pelvis_yaw.hold(t).key(t + out, yaw).hold(t + out + 0.04).key(t + out + 0.04 + back, y0)
            self.spine_twist.hold(t).key(t + out, twist).hold(t + out + 0.04).key(t + out + 0.04 + back, w0)
        return t + out + 0.04 + back

    def jab(self, t):
        return self.straight(self.hand_l, self.pole_l, t, (4.0, 19.0, 60.0), out=0.15, back=0.2,
                             pole_dir=(0.3, -1.0, 0.0), torso=(STANCE_YAW - 8.0, -6.0))

    def cross(self, t):
        return self.straight(self.hand_r, self.pole_r, t, (0.0, 20.0, 58.0), out=0.17, back=0.25,
                             pole_dir=(-0.3, -1.0, 0.0), torso=(8.0, 14.0))

    def left_hook(self, t):
        """Wind up (elbow rises and swings out), then the fist travels across in a horizontal arc."""
        g, p = self.hand_l.last(), self.pole_l.last()
        self.hand_l.hold(t).key(t + 0.26, (24.0, 20.0, 30.0)).key(t + 0.48, (-10.0, 22.0, 44.0)) \
            .hold(t + 0.52).key(t + 0.8, g)
        self.pole_l.hold(t).key(t + 0.26, POLE_HOOK_L).hold(t + 0.52).key(t + 0.8, p)
        y0, w0 = self.pelvis_yaw.last(), self.spine_twist.last()
        self.pelvis_yaw.hold(t).key(t + 0.26, STANCE_YAW - 8.0).key(t + 0.48, 5.0).hold(t + 0.52) \
            .key(t + 0.8, y0)
        self.spine_twist.hold(t).key(t + 0.26, -8.0).key(t + 0.48, 10.0).hold(t + 0.52).key(t + 0.8, w0)
        return t + 0.8

    def right_uppercut(self, t):
        """Dip with the rear hand low, then drive up under the chin line."""
        g, p = self.hand_r.last(), self.pole_r.last()
        self.hand_r.hold(t).key(t + 0.2, (-12.0, 2.0, 22.0)).key(t + 0.38, (-4.0, 40.0, 42.0)) \
            .hold(t + 0.42).key(t + 0.7, g)
        self.pole_r.hold(t).key(t + 0.2, POLE_UPPERCUT_R).hold(t + 0.42).key(t + 0.7, p)
        h = self.hips_height.last()
        self.hips_height.hold(t).key(t + 0.2, h - 5.0).key(t + 0.38, h + 2.0).key(t + 0.7, h)
        y0, w0 = self.pelvis_yaw.last(), self.spine_twist.last()
        self.pelvis_yaw.hold(t).key(t + 0.38, 0.0).hold(t + 0.42).key(t + 0.7, y0)
        self.spine_twist.hold(t).key(t + 0.38, 10.0).hold(t + 0.42).key(t + 0.7, w0)
        return t + 0.7

    def step(self, t, dz, dx=0.0, lead_first=True):
        """Footwork: the leading foot moves, then the other follows (a boxer's shuffle step)."""
        feet = [(self.foot_l, self.lift_l), (self.foot_r, self.lift_r)]
        if not lead_first:
            feet.reverse()
        for i, (foot, lift) in enumerate(feet):
            t0 = t + 0.18 * i
            x, z = foot.last()
            foot.hold(t0).key(t0 + 0.24, (x + dx, z + dz))
            lift.hold(t0).key(t0 + 0.12, 5.0).key(t0 + 0.24, 0.0)
        return t + 0.45

    def relax(self, t):
        self.hand_l.hold(t).key(t + 0.6, GUARD_L)
        self.hand_r.hold(t).key(t + 0.6, GUARD_R)


def choreography():
    c = Choreography()
    c.guard_up(0.2)
    c.step_into_stance(0.6)
    t = 1.15
    t = c.jab(t) + 0.12
    t = c.jab(t) + 0.12
    t = c.cross(t) + 0.1
    t = c.step(t, dz=25.0) + 0.05  # step forward
    t = c.jab(t) + 0.02
    t = c.cross(t) + 0.12
    t = c.left_hook(t) + 0.1
    t = c.right_uppercut(t) + 0.1
    t = c.step(t, dz=-22.0, lead_first=False) + 0.05  # step back
    t = c.left_hook(t)
    c.relax(t + 0.05)
    assert t + 0.7 < DURATION, t
    return c


# ---------------------------------------------------------------------------------------------------
# Posing a frame: torso by keys, limbs by two-link IK
# ---------------------------------------------------------------------------------------------------


def soft_reach(d, reach):
    """Distance actually reached for a target at distance d: d itself well inside the reach, then
    saturating smoothly below full extension (a hard clamp would snap the elbow straight at infinite
    speed when a target passes the reach)."""
    knee = 0.85 * reach
    if d <= knee:
        return d
    return knee + 0.13 * reach * math.tanh((d - knee) / (0.13 * reach))


def two_link(root, target, l1, l2, pole, soft):
    """Middle joint of a two-link chain from `root` reaching `target`, bending towards `pole`. Arms
    (`soft`) saturate smoothly near full extension; legs must reach their ankle targets exactly (the
    choreography keeps them within reach) so that the feet stay on the floor."""
    d_vec = sub(target, root)
    if soft:
        d = max(soft_reach(norm(d_vec), l1 + l2), abs(l1 - l2) + 1e-3)
    else:
        d = norm(d_vec)
        assert abs(l1 - l2) < d < 0.999 * (l1 + l2), "leg target out of reach: %.2f cm" % d
    u = normalize(d_vec)
    w = sub(pole, mul(u, dot(pole, u)))
    w = normalize(w)
    cos_a = (l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d)
    sin_a = math.sqrt(max(0.0, 1.0 - cos_a * cos_a))
    middle = add(root, add(mul(u, l1 * cos_a), mul(w, l1 * sin_a)))
    end = add(root, mul(u, d))
    return middle, end, normalize(cross(u, w))


def limb_rotations(rest_name, root, target, l1, l2, pole, soft):
    """Global rotations of the upper and lower segment of a limb (rest frame -> posed frame)."""
    middle, end, hinge = two_link(root, target, l1, l2, pole, soft)
    rest = REST_FRAMES[rest_name]
    upper = mat_mul(frame(sub(middle, root), hinge), transpose(rest))
    lower = mat_mul(frame(sub(end, middle), hinge), transpose(rest))
    return upper, lower


class Pose:
    """Local rotations of every animated joint and the root position for one frame."""

    def __init__(self):
        self.local = {name: IDENTITY for name in ANIMATED}
        self.root = (0.0, 0.0, 0.0)
        self.glob = {}
        self.pos = {}

    def forward(self, upto=None):
        """Global rotations and positions (cm) of all joints, by forward kinematics."""
        for name, parent, offset in SKELETON:
            local = self.local.get(name, IDENTITY)
            if parent is None:
                self.glob[name] = local
                self.pos[name] = add(self.root, offset)
            else:
                self.glob[name] = mat_mul(self.glob[parent], local)
                self.pos[name] = add(self.pos[parent], mat_vec(self.glob[parent], offset))

    def set_global(self, name, rotation):
        """Sets a joint's local rotation so that its global rotation is `rotation`."""
        self.local[name] = mat_mul(transpose(self.glob[PARENT[name]]), rotation)
        self.glob[name] = rotation


def pose_at(c, t):
    p = Pose()
    yaw = c.pelvis_yaw(t)
    foot_l, foot_r = c.foot_l(t), c.foot_r(t)
    bias = c.hips_xz_bias(t)
    bounce = 0.8 * math.sin(2.0 * math.pi * 1.8 * t) * min(1.0, max(0.0, (t - 1.0) / 0.5))
    p.root = ((foot_l[0] + foot_r[0]) / 2.0 + bias[0], c.hips_height(t) + bounce,
              (foot_l[1] + foot_r[1]) / 2.0 + bias[1])
    p.local["Hips"] = rot_y(yaw)
    twist = c.spine_twist(t)
    p.local["LowerBack"] = rot_x(c.lean(t) * 0.5)
    p.local["Spine"] = mat_mul(rot_y(twist * 0.5), rot_x(c.lean(t) * 0.5))
    p.local["Spine1"] = rot_y(twist * 0.5)
    # The head keeps looking at the opponent (+Z): the neck undoes the torso's turn and lean.
    p.local["Neck"] = mat_mul(rot_y(-(yaw + twist) * 0.6), rot_x(-c.lean(t) * 0.5))
    p.local["Head"] = mat_mul(rot_y(-(yaw + twist) * 0.4), rot_x(-c.lean(t) * 0.3 + 6.0))
    p.forward()

    chest = p.pos["Spine1"]
    for side, hand, pole in (("Left", c.hand_l, c.pole_l), ("Right", c.hand_r, c.pole_r)):
        shoulder = p.pos[side + "Arm"]
        target = add(chest, hand(t))
        upper, lower = limb_rotations(side + "Arm", shoulder, target, UPPER_ARM, FOREARM, pole(t), True)
        p.set_global(side + "Arm", upper)
        p.set_global(side + "ForeArm", lower)
        # The fist continues the forearm with a little wrist extension.
        p.set_global(side + "Hand", mat_mul(lower, rot_y(8.0 if side == "Left" else -8.0)))
        p.forward()

    for side, foot, lift, foot_yaw in (("Left", c.foot_l, c.lift_l, c.foot_yaw_l),
                                       ("Right", c.foot_r, c.lift_r, c.foot_yaw_r)):
        hip = p.pos[side + "UpLeg"]
        x, z = foot(t)
        ankle = (x, ANKLE_HEIGHT + lift(t), z)
        knee_pole = mat_vec(rot_y(foot_yaw(t)), (0.0, 0.0, 1.0))
        upper, lower = limb_rotations(side + "UpLeg", hip, ankle, THIGH, SHIN, knee_pole, False)
        p.set_global(side + "UpLeg", upper)
        p.set_global(side + "Leg", lower)
        # The foot stays flat, pointing along its yaw; lifted a little toe-down during a step.
        p.set_global(side + "Foot", mat_mul(rot_y(foot_yaw(t)), rot_x(lift(t) * 1.5)))
        p.forward()
    return p


# ---------------------------------------------------------------------------------------------------
# The walking sample: footsteps planned on a path, feet rolled over heel and ball, pelvis by splines
# ---------------------------------------------------------------------------------------------------

WALK_DURATION = 9.5
WALK_FRAMES = int(round(RATE * WALK_DURATION))

CADENCE = 105.0  # steps per minute
STEP_TIME = 60.0 / CADENCE  # 0.571 s from one heel strike to the other foot's
CYCLE = 2.0 * STEP_TIME  # 1.143 s
DOUBLE_SUPPORT = 0.1 * CYCLE  # after each heel strike: 2 x 10 % = 20 % of the cycle with both feet down
SWING = 0.4 * CYCLE  # 0.457 s; each foot is down for the other 60 %
STEP_LENGTH = 60.0  # cm along the path from one foot to the other: stride 1.2 m, 1.05 m/s
FIRST_STEP = 35.0  # cm: the first step from standing is about half a step; the last one closes beside
STEP_COUNT = 10
FOOT_SPREAD = 7.0  # cm either side of the path: step width 14 cm between the ankles
TURN_START, TURN_END, TURN = 240.0, 360.0, 40.0  # a 40 degree turn to the left between s = 2.4 and 3.6 m
FIRST_TOE_OFF = 1.5  # s: stand still for 1.05 s, shift the weight, lift the right foot
HEEL_STRIKE_PITCH = -8.0  # degrees, toe up
LOADING = 0.1  # s from heel strike to foot flat, rolling over the heel
HEEL_RISE = 0.25  # s from heel off to toe off, rolling over the ball
SWING_LIFT = 9.0  # cm added to the ankle's height at 40 % of the swing (see swing_lift)
# Root height: standing (knees 12 degrees bent), mid-stance, heel strike. The low point is where the front
# leg reaches for its heel and the back one still stands on its ball: 89 cm leaves the knees 17 degrees bent
# there (0.4 % of the leg's reach to spare in the turn, where it is tightest; two_link asserts the reach).
HIPS_STAND, HIPS_HIGH, HIPS_LOW = 94.5, 92.8, 89.0
SWAY = 1.6  # cm, pelvis towards the stance foot at mid-stance
PELVIS_ROTATION = 4.0  # degrees, the swing leg's hip forward
THORAX_COUNTER = 0.7  # the chest turns this fraction of the pelvis rotation the other way
ARM_SWING = 16.0  # degrees of shoulder flexion (forward) and extension (back) at heel strike
WALK_LEAN = 3.0  # degrees of forward trunk lean while walking

# Contact points in the foot's rest frame, from the ankle: the heel's floor contact and the ball of the
# foot (the toe base joint, the hinge of the push-off); the foot is flat when both are on the floor.
HEEL = (0.0, -ANKLE_HEIGHT, -5.0)
BALL = OFFSET["LeftToeBase"]


class Spline:
    """Cubic spline (C2) through keys (t, value) with zero slope at both ends; held outside them. Unlike
    Track's minimum-jerk segments it does not stop at every key: the pelvis keeps walking."""

    def __init__(self, keys):
        self.t = [k[0] for k in keys]
        self.y = [k[1] for k in keys]
        n = len(keys)
        h = [self.t[i + 1] - self.t[i] for i in range(n - 1)]
        assert all(x > 0.0 for x in h), self.t
        # Second derivatives M from the tridiagonal system (clamped ends), by the Thomas algorithm.
        lower, diag, upper, rhs = [0.0] * n, [0.0] * n, [0.0] * n, [0.0] * n
        slope = [(self.y[i + 1] - self.y[i]) / h[i] for i in range(n - 1)]
        diag[0], upper[0], rhs[0] = 2.0 * h[0], h[0], 6.0 * slope[0]
        for i in range(1, n - 1):
            lower[i], diag[i], upper[i] = h[i - 1], 2.0 * (h[i - 1] + h[i]), h[i]
            rhs[i] = 6.0 * (slope[i] - slope[i - 1])
        lower[n - 1], diag[n - 1], rhs[n - 1] = h[n - 2], 2.0 * h[n - 2], -6.0 * slope[n - 2]
        for i in range(1, n):
            w = lower[i] / diag[i - 1]
            diag[i] -= w * upper[i - 1]
            rhs[i] -= w * rhs[i - 1]
        self.m = [0.0] * n
        self.m[n - 1] = rhs[n - 1] / diag[n - 1]
        for i in range(n - 2, -1, -1):
            self.m[i] = (rhs[i] - upper[i] * self.m[i + 1]) / diag[i]

    def __call__(self, x):
        t, y, m = self.t, self.y, self.m
        if x <= t[0]:
            return y[0]
        if x >= t[-1]:
            return y[-1]
        i = max(j for j in range(len(t) - 1) if t[j] <= x)
        h = t[i + 1] - t[i]
        a, b = t[i + 1] - x, x - t[i]
        return (m[i] * a ** 3 + m[i + 1] * b ** 3) / (6.0 * h) + (y[i] / h - m[i] * h / 6.0) * a \
            + (y[i + 1] / h - m[i + 1] * h / 6.0) * b


def heading_at(s):
    """Walking direction (degrees, to the left of +Z) at arc length s (cm) of the path."""
    return TURN * smooth(min(1.0, max(0.0, (s - TURN_START) / (TURN_END - TURN_START))))


def path_point(s):
    """(x, z) in cm of the path at arc length s: along +Z, a turn whose heading is a minimum-jerk function
    of s (no jump in curvature), then straight on. Simpson's rule over the turn (smooth integrand: exact to
    far below the 1e-4 cm that the BVH keeps)."""
    if s <= TURN_START:
        return (0.0, s)
    end = min(s, TURN_END)
    n = 64
    h = (end - TURN_START) / n
    sx = sz = 0.0
    for i in range(n + 1):
        w = 1.0 if i in (0, n) else (4.0 if i % 2 else 2.0)
        a = math.radians(heading_at(TURN_START + i * h))
        sx += w * math.sin(a)
        sz += w * math.cos(a)
    x, z = sx * h / 3.0, TURN_START + sz * h / 3.0
    if s > TURN_END:
        a = math.radians(TURN)
        x, z = x + (s - TURN_END) * math.sin(a), z + (s - TURN_END) * math.cos(a)
    return (x, z)


def left_of(heading):
    """Unit (x, z) to the left of the walking direction `heading` (degrees)."""
    a = math.radians(heading)
    return (math.cos(a), -math.sin(a))


class Stance:
    """One foot on the floor from heel strike `on` to toe off `off` (None: from the start, to the end),
    its ankle over (x, z) when flat, its yaw, its distance s along the path and how far the heel rises
    (degrees of foot pitch) before toe off."""

    def __init__(self, side, on, s):
        self.side, self.on, self.off, self.s = side, on, None, s
        self.yaw = heading_at(s)
        px, pz = path_point(s)
        lx, lz = left_of(self.yaw)
        sign = 1.0 if side == "Left" else -1.0
        self.xz = (px + sign * FOOT_SPREAD * lx, pz + sign * FOOT_SPREAD * lz)
        self.rise = 0.0

    def flat(self):
        return (self.xz[0], ANKLE_HEIGHT, self.xz[1])

    def pose(self, t):
        """Ankle position, foot and toe global rotations while down: heel rocker after heel strike, flat,
        ball rocker before toe off. The pivot (heel point, then the whole sole, then the ball) stays put."""
        yaw = rot_y(self.yaw)
        if self.on is not None and t < self.on + LOADING:
            pitch = HEEL_STRIKE_PITCH * (1.0 - smooth((t - self.on) / LOADING))
            foot = mat_mul(yaw, rot_x(pitch))
            heel = add(self.flat(), mat_vec(yaw, HEEL))
            return sub(heel, mat_vec(foot, HEEL)), foot, foot
        if self.off is not None and t > self.off - HEEL_RISE:
            pitch = self.rise * smooth((t - self.off + HEEL_RISE) / HEEL_RISE)
            foot = mat_mul(yaw, rot_x(pitch))
            ball = add(self.flat(), mat_vec(yaw, BALL))
            return sub(ball, mat_vec(foot, BALL)), foot, yaw  # the toes stay flat on the floor
        return self.flat(), yaw, yaw


def swing_profile(s):
    """Forward progress of the swing foot, 3 s^2 - 5 s^3 + 6 s^4 - 3 s^5 (monotonic): it leaves and lands
    with zero speed but a finite acceleration, as a push-off and a heel strike do (second derivative 6 at
    toe off, -12 at heel strike). A foot that crept onto the floor (a minimum-jerk ending) would be seen
    planted frames before its heel touched, and one that crept off it would hold the trailing leg back
    while the pelvis walks on."""
    return s * s * (3.0 + s * (-5.0 + s * (6.0 - 3.0 * s)))


def swing_lift(s):
    """Ankle lift during the swing, in units of SWING_LIFT: s^2 (1 - s)^3 normalized, highest at 40 % of
    the swing (the knee flexes most early in the swing), zero speed at both ends."""
    return s * s * (1.0 - s) ** 3 / 0.03456


def swing_pose(a, b, t):
    """Swing from stance a (toe off) to stance b (heel strike): ankle, foot and toe rotations."""
    s = (t - a.off) / (b.on - a.off)
    start, _, _ = a.pose(a.off)
    end, _, _ = b.pose(b.on)
    yaw = a.yaw + (b.yaw - a.yaw) * smooth(s)
    # The foot levels out in the first half of the swing and lifts its toes for the heel strike.
    pitch = a.rise * (1.0 - smooth(min(1.0, s / 0.5))) + HEEL_STRIKE_PITCH * smooth(max(0.0, (s - 0.4) / 0.6))
    p = swing_profile(s)
    height = start[1] + (end[1] - start[1]) * smooth(s) + SWING_LIFT * swing_lift(s)
    ankle = (start[0] + (end[0] - start[0]) * p, height, start[2] + (end[2] - start[2]) * p)
    foot = mat_mul(rot_y(yaw), rot_x(pitch))
    toe = mat_mul(rot_y(yaw), rot_x(pitch * smooth(min(1.0, s / 0.4))))  # the toes straighten after push-off
    return ankle, foot, toe


class WalkPlan:
    """Footsteps, their timing and the pelvis trajectories of the walking sample."""

    def __init__(self):
        self.strikes = [FIRST_TOE_OFF + SWING + k * STEP_TIME for k in range(STEP_COUNT)]
        along = [FIRST_STEP + STEP_LENGTH * k for k in range(STEP_COUNT - 1)]
        along.append(along[-1])  # the closing step
        self.stances = {"Left": [Stance("Left", None, 0.0)], "Right": [Stance("Right", None, 0.0)]}
        self.steps = []
        for k, (t, s) in enumerate(zip(self.strikes, along)):
            side = "Right" if k % 2 == 0 else "Left"
            other = "Left" if side == "Right" else "Right"
            previous = self.stances[side][-1]
            previous.off = t - SWING
            # Push off harder the further ahead the other foot stands (a step from standing hardly rolls).
            gap = self.stances[other][-1].s - previous.s
            previous.rise = 15.0 + 20.0 * min(1.0, max(0.0, gap / STEP_LENGTH))
            stance = Stance(side, t, s)
            self.stances[side].append(stance)
            self.steps.append(stance)

        begin = FIRST_TOE_OFF - 0.45  # the weight shift before the first step
        end = self.strikes[-1] + 0.7
        mid_double = [t + DOUBLE_SUPPORT / 2.0 for t in self.strikes]
        mid_single = [FIRST_TOE_OFF + SWING / 2.0] + [t + (STEP_TIME + DOUBLE_SUPPORT) / 2.0
                                                      for t in self.strikes[:-1]]
        # Along the path: half way between the feet at each heel strike, where the front leg reaches
        # furthest (with the pelvis a few centimetres further back the knee could not reach the heel); at the
        # closing heel strike most of the way to the feet, which stop side by side.
        previous = [0.0] + along[:-1]
        self.along = Spline([(begin, 0.0)] + [(t, (a + b) / 2.0) for t, a, b in
                                              zip(self.strikes[:-1], along[:-1], previous[:-1])]
                            + [(self.strikes[-1], along[-1] - 0.2 * STEP_LENGTH), (end, along[-1])])
        # Sideways over the stance foot in single support (the left foot carries the first swing).
        sides = [1.0] + [(-1.0 if k % 2 == 0 else 1.0) for k in range(STEP_COUNT - 1)]
        self.sway = Spline([(begin, 0.0)] + [(t, SWAY * d) for t, d in zip(mid_single, sides)] + [(end, 0.0)])
        # Up over the stance leg, down between the feet (inverted pendulum).
        # The pelvis also sinks at the first toe off and at the closing heel strike: a straight trailing leg
        # could not reach its foot with the pelvis shifted forward and sideways at standing height.
        heights = sorted([(FIRST_TOE_OFF, HIPS_LOW)] + [(t, HIPS_HIGH) for t in mid_single]
                         + [(t, HIPS_LOW) for t in self.strikes])
        self.height = Spline([(begin, HIPS_STAND)] + heights + [(end, HIPS_STAND)])
        # Gait phase: +1 at a right heel strike, -1 at a left one, less for the short first step.
        phase = [(t, (0.5 if k == 0 else 1.0) * (1.0 if k % 2 == 0 else -1.0))
                 for k, t in enumerate(self.strikes[:-1])]
        self.phase = Spline([(begin, 0.0)] + phase + [(self.strikes[-1], 0.0), (end, 0.0)])
        self.lean = Spline([(begin, 0.0), (self.strikes[0], WALK_LEAN), (self.strikes[-2], WALK_LEAN), (end, 0.0)])

    def foot(self, side, t):
        stances = self.stances[side]
        for i, st in enumerate(stances):
            if (st.on is None or st.on <= t) and (st.off is None or t <= st.off):
                return st.pose(t)
            if st.off is not None and st.off < t < stances[i + 1].on:
                return swing_pose(st, stances[i + 1], t)
        raise AssertionError("no stance or swing at %g s" % t)


def walk_pose_at(plan, t):
    p = Pose()
    s = plan.along(t)
    heading = heading_at(s)
    px, pz = path_point(s)
    lx, lz = left_of(heading)
    sway = plan.sway(t)
    p.root = (px + sway * lx, plan.height(t), pz + sway * lz)
    rotation = PELVIS_ROTATION * plan.phase(t)
    lean = plan.lean(t)
    twist = -(1.0 + THORAX_COUNTER) * rotation  # the chest turns against the pelvis
    p.local["Hips"] = rot_y(heading + rotation)
    p.local["LowerBack"] = rot_x(lean * 0.5)
    p.local["Spine"] = mat_mul(rot_y(twist * 0.5), rot_x(lean * 0.5))
    p.local["Spine1"] = rot_y(twist * 0.5)
    # The head looks where the walk goes: the neck undoes the chest's turn and the lean.
    p.local["Neck"] = mat_mul(rot_y(-(rotation + twist) * 0.6), rot_x(-lean * 0.5))
    p.local["Head"] = mat_mul(rot_y(-(rotation + twist) * 0.4), rot_x(-lean * 0.5 + 4.0))
    p.forward()

    # Arms swing against the legs: the left arm forward at a right heel strike. The hand's distance from
    # the shoulder shortens as it swings forward (the elbow bends more in front).
    chest = p.glob["Spine1"]
    for side, sign, forward in (("Left", 1.0, plan.phase(t)), ("Right", -1.0, -plan.phase(t))):
        shoulder = p.pos[side + "Arm"]
        flexion = math.radians(3.0 + ARM_SWING * forward)
        abduction = math.radians(6.0)
        reach = 50.0 - 2.0 * forward
        local = (sign * math.sin(abduction) * reach, -math.cos(abduction) * math.cos(flexion) * reach,
                 math.cos(abduction) * math.sin(flexion) * reach)
        target = add(shoulder, mat_vec(chest, local))
        pole = mat_vec(chest, (sign * 0.3, 0.0, -1.0))  # elbows point back
        upper, lower = limb_rotations(side + "Arm", shoulder, target, UPPER_ARM, FOREARM, pole, True)
        p.set_global(side + "Arm", upper)
        p.set_global(side + "ForeArm", lower)
        p.set_global(side + "Hand", lower)
        p.forward()

    for side in ("Left", "Right"):
        ankle, foot, toe = plan.foot(side, t)
        along_foot = mat_vec(foot, (0.0, 0.0, 1.0))
        knee_pole = (along_foot[0], 0.0, along_foot[2])
        upper, lower = limb_rotations(side + "UpLeg", p.pos[side + "UpLeg"], ankle, THIGH, SHIN, knee_pole, False)
        p.set_global(side + "UpLeg", upper)
        p.set_global(side + "Leg", lower)
        p.set_global(side + "Foot", foot)
        p.set_global(side + "ToeBase", toe)
        p.forward()
    return p


# ---------------------------------------------------------------------------------------------------
# Markers: Vicon Plug-in Gait full body, placed in the segments' frames (cm, rest pose axes)
# ---------------------------------------------------------------------------------------------------

MARKERS_LEFT = [
    # (name, segment, offset in the segment's rest-pose frame)
    ("LFHD", "Head", (5.0, 10.0, 9.0)),
    ("LBHD", "Head", (5.5, 9.0, -9.0)),
    ("LSHO", "LeftArm", (0.0, 5.0, 0.0)),
    ("LUPA", "LeftArm", (14.0, 0.0, -5.0)),
    ("LELB", "LeftForeArm", (0.0, 0.0, -4.0)),
    ("LFRA", "LeftForeArm", (13.0, 0.0, -4.0)),
    ("LWRA", "LeftHand", (0.0, 0.0, 3.0)),
    ("LWRB", "LeftHand", (0.0, 0.0, -3.0)),
    ("LFIN", "LeftHand", (8.0, 2.0, 0.0)),
    ("LASI", "Hips", (12.0, 4.0, 10.0)),
    ("LPSI", "Hips", (5.0, 6.0, -10.0)),
    ("LTHI", "LeftUpLeg", (8.0, -21.0, 0.0)),
    ("LKNE", "LeftLeg", (6.0, 0.0, 0.0)),
    ("LTIB", "LeftLeg", (6.0, -20.0, 0.0)),
    ("LANK", "LeftFoot", (6.0, 0.0, 0.0)),
    ("LHEE", "LeftFoot", (0.0, -3.0, -7.0)),
    ("LTOE", "LeftToeBase", (0.0, 2.0, 1.0)),
    ("LMT5", "LeftToeBase", (4.5, 1.0, -2.0)),
]
MARKERS_CENTRE = [
    ("C7", "Neck", (0.0, 1.0, -7.0)),
    ("T10", "Spine", (0.0, 3.0, -11.0)),
    ("CLAV", "Neck", (0.0, -2.0, 7.0)),
    ("STRN", "Spine1", (0.0, 4.0, 11.0)),
    ("RBAK", "Spine1", (-8.0, 10.0, -10.0)),  # asymmetric on purpose (tells left from right)
]


def mirrored(markers):
    out = []
    for name, segment, (x, y, z) in markers:
        seg = segment.replace("Left", "Right") if segment.startswith("Left") else segment
        out.append(("R" + name[1:], seg, (-x, y, z)))
    return out


MARKERS = (MARKERS_LEFT[:2] + mirrored(MARKERS_LEFT[:2]) + MARKERS_CENTRE
           + MARKERS_LEFT[2:9] + mirrored(MARKERS_LEFT[2:9])
           + MARKERS_LEFT[9:11] + mirrored(MARKERS_LEFT[9:11])
           + MARKERS_LEFT[11:] + mirrored(MARKERS_LEFT[11:]))


def marker_positions(p):
    """World positions (cm, Y up) of the markers in pose `p`."""
    return [add(p.pos[seg], mat_vec(p.glob[seg], off)) for _, seg, off in MARKERS]


# ---------------------------------------------------------------------------------------------------
# Writers
# ---------------------------------------------------------------------------------------------------


def write_bvh(path, poses):
    lines = ["HIERARCHY"]

    def block(name, depth):
        pad = "\t" * depth
        off = OFFSET[name]
        if name.endswith("_End"):
            lines.append(pad + "End Site")
        else:
            lines.append(pad + ("ROOT " if PARENT[name] is None else "JOINT ") + name)
        lines.append(pad + "{")
        lines.append(pad + "\tOFFSET %.4f %.4f %.4f" % off)
        if PARENT[name] is None:
            lines.append(pad + "\tCHANNELS 6 Xposition Yposition Zposition Zrotation Yrotation Xrotation")
        elif not name.endswith("_End"):
            lines.append(pad + "\tCHANNELS 3 Zrotation Yrotation Xrotation")
        for child in CHILDREN[name]:
            block(child, depth + 1)
        lines.append(pad + "}")

    block("Hips", 0)
    lines.append("MOTION")
    lines.append("Frames: %d" % len(poses))
    lines.append("Frame Time: %.7f" % (1.0 / RATE))
    previous = {name: (0.0, 0.0, 0.0) for name in ANIMATED}
    for p in poses:
        values = list(p.root)
        for name in ANIMATED:
            angles = euler_zyx(p.local[name])
            angles = tuple(unwrap(a, b) for a, b in zip(angles, previous[name]))
            previous[name] = angles
            values.extend(angles)
        lines.append(" ".join("%.4f" % v for v in values))
    path.write_text("\n".join(lines) + "\n")


def c3d_parameter(group_id, name, kind, dims, data, description=""):
    """One parameter record: name, pointer to the next record, type, dimensions, data, description."""
    encoded_name = name.encode("ascii")
    body = struct.pack("<bB", kind, len(dims)) + bytes(dims) + data
    body += struct.pack("<B", len(description)) + description.encode("ascii")
    return struct.pack("<bb", len(encoded_name), group_id) + encoded_name + struct.pack("<H", 2 + len(body)) + body


def c3d_group(group_id, name, description):
    encoded_name = name.encode("ascii")
    body = struct.pack("<B", len(description)) + description.encode("ascii")
    return struct.pack("<bb", len(encoded_name), -group_id) + encoded_name + struct.pack("<H", 2 + len(body)) + body


def c3d_strings(items):
    length = max(len(s) for s in items)
    return length, b"".join(s.ljust(length).encode("ascii") for s in items)


def write_c3d(path, frames_mm, labels):
    """Intel floats, millimetres, POINT:SCALE = -0.1 (float storage), no analog data."""
    points = len(labels)
    scale = -0.1
    records = [c3d_group(1, "POINT", "3-D point parameters"), c3d_group(2, "ANALOG", "Analog data parameters")]
    records.append(c3d_parameter(1, "USED", 2, [], struct.pack("<h", points), "Number of markers"))
    records.append(c3d_parameter(1, "SCALE", 4, [], struct.pack("<f", scale), "Negative: float storage"))
    records.append(c3d_parameter(1, "RATE", 4, [], struct.pack("<f", RATE), "Frames per second"))
    records.append(c3d_parameter(1, "FRAMES", 2, [], struct.pack("<h", len(frames_mm)), "Number of frames"))
    units = b"mm"
    records.append(c3d_parameter(1, "UNITS", -1, [len(units)], units, "Length unit"))
    length, data = c3d_strings(labels)
    records.append(c3d_parameter(1, "LABELS", -1, [length, points], data, "Plug-in Gait marker names"))
    length, data = c3d_strings(["Plug-in Gait"] * points)
    records.append(c3d_parameter(1, "DESCRIPTIONS", -1, [length, points], data, ""))
    records.append(c3d_parameter(1, "X_SCREEN", -1, [2], b"+X", ""))
    records.append(c3d_parameter(1, "Y_SCREEN", -1, [2], b"+Z", ""))
    records.append(c3d_parameter(2, "USED", 2, [], struct.pack("<h", 0), "No analog channels"))
    records.append(c3d_parameter(2, "RATE", 4, [], struct.pack("<f", RATE), ""))
    # DATA_START last: its value depends on the section's length.
    section = b"".join(records)
    data_start_record_length = len(c3d_parameter(1, "DATA_START", 2, [], b"\0\0", "First data block"))
    blocks = (4 + len(section) + data_start_record_length + 2 + 511) // 512
    data_block = 2 + blocks
    last = c3d_parameter(1, "DATA_START", 2, [], struct.pack("<h", data_block), "First data block")
    last = last[:2 + len("DATA_START")] + struct.pack("<H", 0) + last[4 + len("DATA_START"):]  # last record
    parameters = struct.pack("<BBBB", 1, 0x50, blocks, 84) + section + last
    parameters = parameters.ljust(blocks * 512, b"\0")

    header = struct.pack("<BBHHHHHfHHf", 2, 0x50, points, 0, 1, len(frames_mm), 10, scale, data_block, 0, RATE)
    header = header.ljust(512, b"\0")
    data = bytearray()
    for frame in frames_mm:
        for x, y, z in frame:
            data += struct.pack("<ffff", x, y, z, 0.0)  # residual 0: measured
    data = bytes(data).ljust((len(data) + 511) // 512 * 512, b"\0")
    path.write_bytes(header + parameters + data)


def write_markers(path, poses):
    # Marker world positions: cm, Y up, facing +Z  ->  mm, Z up, X forward, Y left (a rotation, no mirror).
    frames_mm = [[(10.0 * z, 10.0 * x, 10.0 * y) for x, y, z in marker_positions(p)] for p in poses]
    write_c3d(path, frames_mm, [m[0] for m in MARKERS])


def print_steps(plan):
    """The walking sample's footsteps as mimic reads them (metres, Z up, X forward, Y left; heading in
    degrees about +Z from +X): the ground truth of `mimic info walk.bvh --contacts`."""
    print("foot   heel strike [s] frame  x [m]    y [m]  heading [deg]")
    for st in plan.steps:
        print("%-5s  %15.4f %5d %7.4f %7.4f %14.2f" % (st.side.lower(), st.on, round(st.on * RATE),
                                                   st.xz[1] / 100.0, st.xz[0] / 100.0, st.yaw))


def main():
    repo = pathlib.Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=repo / "data" / "mocap")
    parser.add_argument("--steps", action="store_true", help="print the walking sample's footsteps and exit")
    args = parser.parse_args()
    if args.steps:
        print_steps(WalkPlan())
        return
    args.out.mkdir(parents=True, exist_ok=True)

    c = choreography()
    poses = [pose_at(c, f / RATE) for f in range(FRAMES)]
    write_bvh(args.out / "boxing.bvh", poses)
    write_markers(args.out / "boxing.c3d", poses)
    print("wrote %s and %s: %d frames at %g Hz, %d markers"
          % (args.out / "boxing.bvh", args.out / "boxing.c3d", FRAMES, RATE, len(MARKERS)))

    plan = WalkPlan()
    poses = [walk_pose_at(plan, f / RATE) for f in range(WALK_FRAMES)]
    write_bvh(args.out / "walk.bvh", poses)
    write_markers(args.out / "walk.c3d", poses)
    print("wrote %s and %s: %d frames at %g Hz, %d steps"
          % (args.out / "walk.bvh", args.out / "walk.c3d", WALK_FRAMES, RATE, len(plan.steps)))


if __name__ == "__main__":
    main()
