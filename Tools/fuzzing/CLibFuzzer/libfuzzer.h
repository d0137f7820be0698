// libFuzzer's driver, linked in by `-sanitize=fuzzer` (Tools/fuzz); only fuzz builds (-DFUZZING) call it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
