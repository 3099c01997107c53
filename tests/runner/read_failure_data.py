#!/usr/bin/python3
"""--save-failures read back with numpy (issue 27 item 5).

Runs `aclnn-check run` on the provider whose factor at self = 3 is 1 instead of 1.5, saving the
failing points, then loads every file each manifest names with numpy.load and checks what the fault
did: where self is 3 the device wrote gradOutput and the reference is 1.5 * gradOutput; the error
file is device - reference; bfloat16 arrays are raw bits ('<u2') whose float32 copy is the bits
shifted into the high half. Exit 77 (CTest's skip code here) when numpy is missing.

usage: read_failure_data.py ACLNN_CHECK FAULTY_PROVIDER WORK_DIR
"""
import json
import pathlib
import shutil
import subprocess
import sys

try:
    import numpy
except ImportError:
    print("SKIP: numpy is not installed (Debian python3-numpy); the saved failure data was not read back")
    sys.exit(77)

CASE = {
    "name": "numpy_readback", "op": "HardswishBackward",
    "axes": {"dtype": ["float32", "float16", "bfloat16"], "shape": [[6, 7]]},
    "inputs": {"gradOutput": {"dist": "normal", "mean": 0, "std": 2},
               "self": {"dist": "uniform", "low": -5, "high": 5, "specials": ["3"]}},
    "layout": ["contiguous", "transposed"],
    "seed": 11,
}
NPY_TYPES = {"float32": "<f4", "float16": "<f2", "bfloat16": "<u2"}


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def main():
    cli, provider, work = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
    shutil.rmtree(work, ignore_errors=True)
    (work / "cases").mkdir(parents=True)
    (work / "cases" / "readback.json").write_text(json.dumps(CASE))
    run = subprocess.run([cli, "run", str(work / "cases"), "--provider", provider, "--report-dir", str(work / "report"),
                          "--run-history", "", "--save-failures", str(work / "failures")],
                         capture_output=True, text=True)
    if run.returncode != 1:
        fail("expected exit code 1 (failures), got %d\n%s%s" % (run.returncode, run.stdout, run.stderr))
    report = json.loads((work / "report" / "report.json").read_text())
    checked = 0
    for point in report["test_points"]:
        if point["verdict"] == "passed":
            continue
        folder = pathlib.Path(point["failure_data"]["path"])
        manifest = json.loads((folder / "manifest.json").read_text())
        if manifest["id"] != point["id"] or manifest["repro"] != point["repro"]:
            fail("%s: manifest does not match the report" % folder)
        dtype = manifest["dtype"]
        arrays = {}
        for name, entry in list(manifest["inputs"].items()) + [("out", manifest["outputs"]["out"])]:
            array = numpy.load(folder / entry["file"])
            if array.dtype != numpy.dtype(NPY_TYPES[dtype]) or list(array.shape) != entry["shape"]:
                fail("%s: %s is %s %s, manifest says %s %s" % (folder, entry["file"], array.dtype, array.shape,
                                                               NPY_TYPES[dtype], entry["shape"]))
            if dtype == "bfloat16":
                decoded = numpy.load(folder / entry["float32_file"])
                if not numpy.array_equal((array.astype(numpy.uint32) << 16).view(numpy.float32), decoded):
                    fail("%s: %s is not the float32 value of the raw bfloat16 bits" % (folder, entry["float32_file"]))
                array = decoded
            arrays[name] = array.astype(numpy.float64)
        out = manifest["outputs"]["out"]
        reference = numpy.load(folder / out["reference_file"])
        error = numpy.load(folder / out["error_file"])
        ulp_error = numpy.load(folder / out["ulp_error_file"])
        if reference.dtype != numpy.float64 or reference.shape != arrays["out"].shape:
            fail("%s: reference is %s %s" % (folder, reference.dtype, reference.shape))
        if not numpy.array_equal(error, arrays["out"] - reference):
            fail("%s: error is not device - reference" % folder)
        at_three = arrays["self"] == 3.0
        if not at_three.any():
            fail("%s: no element with self = 3" % folder)
        if not numpy.array_equal(arrays["out"][at_three], arrays["gradOutput"][at_three]):
            fail("%s: at self = 3 the device should have written gradOutput (factor 1)" % folder)
        if not numpy.array_equal(reference[at_three], 1.5 * arrays["gradOutput"][at_three]):
            fail("%s: at self = 3 the reference should be 1.5 * gradOutput" % folder)
        if not (ulp_error[at_three & (arrays["gradOutput"] != 0)] >= 1).all():
            fail("%s: the wrong elements should be at least 1 ULP off" % folder)
        checked += 1
    if checked != 6:
        fail("expected 6 failing points (3 dtypes x 2 layouts), read %d" % checked)
    print("read back %d failing points with numpy %s" % (checked, numpy.__version__))


main()
