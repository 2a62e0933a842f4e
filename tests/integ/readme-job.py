#!/usr/bin/python3
"""Run one job of a GitHub Actions example in README.md, as a runner runs it.

usage: readme-job.py README HEADING JOB WORKSPACE

HEADING is the README's "### ..." line above the ```yaml block; JOB the
job's name in it, or - for its first. The steps run in order in WORKSPACE
(bash -eo pipefail, the job's env, ${{ github.workspace }} replaced):
`if: failure()` only after a failed step, `always()` always, the others
only while none failed. `uses:` steps are stand-ins: checkout does
nothing, upload-artifact copies `with.path` to $ARTIFACTS, download-artifact
copies $ARTIFACTS' files into the workspace; any other is said and passed.
Each step's output goes to WORKSPACE.stepN.out; one line per step
(NAME: ran RC | skipped | uses | uploaded | downloaded), then "job: success|failure".
Used by tests/integ/132-readme-ci-example.sh and 146-ci-recipe.sh.
"""
import os
import re
import shutil
import subprocess
import sys

import yaml


def main():
    readme, heading, name, ws = sys.argv[1:5]
    text = open(readme).read()
    block = re.search(re.escape(heading) + r"\n.*?```yaml\n(.*?)```", text, re.S).group(1)
    jobs = yaml.safe_load(block)["jobs"]
    job = next(iter(jobs.values())) if name == "-" else jobs[name]
    sub = lambda v: str(v).replace("${{ github.workspace }}", ws)
    env = dict(os.environ, GITHUB_WORKSPACE=ws, GITHUB_STEP_SUMMARY=ws + ".summary.md")
    env.update({k: sub(v) for k, v in job.get("env", {}).items()})
    open(env["GITHUB_STEP_SUMMARY"], "a").close()
    failed = False
    for i, step in enumerate(job["steps"]):
        label = step.get("name", step.get("uses"))
        cond = step.get("if", "success()")
        if (cond == "failure()") != failed and cond != "always()":
            print("%s: skipped" % label)
            continue
        uses = step.get("uses", "")
        if "upload-artifact" in uses and os.environ.get("ARTIFACTS"):
            shutil.copy(os.path.join(ws, step["with"]["path"]), os.environ["ARTIFACTS"])
            print("%s: uploaded" % label)
            continue
        if "download-artifact" in uses and os.environ.get("ARTIFACTS"):
            for f in os.listdir(os.environ["ARTIFACTS"]):
                shutil.copy(os.path.join(os.environ["ARTIFACTS"], f), ws)
            print("%s: downloaded" % label)
            continue
        if uses:
            print("%s: uses" % label)
            continue
        with open("%s.step%d.out" % (ws, i), "w") as out:
            rc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", sub(step["run"])],
                                cwd=ws, env=env, stdout=out, stderr=subprocess.STDOUT).returncode
        print("%s: ran %d" % (label, rc))
        failed = failed or rc != 0
    print("job: %s" % ("failure" if failed else "success"))


if __name__ == "__main__":
    main()
