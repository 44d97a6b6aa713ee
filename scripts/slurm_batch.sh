#!/usr/bin/env bash
# Runs mimic job YAMLs on a Slurm cluster, one job per array task.
#
#   ls config/jobs/*.yaml > jobs.txt
#   sbatch --array=1-$(wc -l < jobs.txt) scripts/slurm_batch.sh jobs.txt
#
# Each task reads line $SLURM_ARRAY_TASK_ID of the list and runs `mimic <kind> --config <yaml>`, logging to
# logs/<yaml stem>.log. The job kind (retarget | smooth | walk) is read from the YAML's `job:` key.
#SBATCH --job-name=mimic
#SBATCH --cpus-per-task=1
#SBATCH --mem=4G
#SBATCH --time=01:00:00
#SBATCH --output=logs/slurm-%A_%a.out
set -euo pipefail
list="${1:?usage: sbatch --array=1-N scripts/slurm_batch.sh JOB_LIST}"
# Slurm runs a spool copy of this script, so its own folder says nothing: the binary is taken from $MIMIC,
# else from the build of the folder sbatch was called in.
mimic="${MIMIC:-${SLURM_SUBMIT_DIR:-$PWD}/build/bin/mimic}"
task="${SLURM_ARRAY_TASK_ID:?not running as a Slurm array task}"
yaml=$(sed -n "${task}p" "$list")
[ -n "$yaml" ] || { echo "no job on line $task of $list" >&2; exit 2; }
kind=$(sed -n 's/^job:[[:space:]]*\([a-z]*\).*/\1/p' "$yaml" | head -n 1)
kind="${kind:-retarget}"
mkdir -p logs
stem=$(basename "$yaml" .yaml)
echo "task $task: mimic $kind --config $yaml" >&2
exec "$mimic" "$kind" --config "$yaml" >"logs/${stem}.log" 2>&1
