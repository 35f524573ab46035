/*
 * fuzz: the shared harness of the fuzz targets.
 *
 * Each target defines LLVMFuzzerTestOneInput(). Built with clang and
 * COREPLAN_FUZZ=ON it is a libFuzzer binary; built as an ordinary program
 * (gcc, every test run) replay.c's main() feeds it every file of the
 * checked-in corpus folders given on the command line, so each input that
 * once crashed stays a regression test.
 */
#ifndef COREPLAN_FUZZ_H
#define COREPLAN_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Write the input to a new file with this extension in the process's
 * private folder (mkdtemp: $TMPDIR/coreplan-fuzz.XXXXXX, else under /tmp),
 * which is removed with its files at exit; returns the file's path, valid
 * until the next call.
 */
const char *fuzz_file(const uint8_t *data, size_t size, const char *extension);
/* The input as a NUL-terminated string (caller frees). */
char *fuzz_text(const uint8_t *data, size_t size);

#endif
