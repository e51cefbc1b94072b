// A stand-in for UIKitCore: an exported C function and Objective-C method implementations, which Apple's
// binaries keep as local symbols named `-[Class selector]` (given here with assembler labels).
// Built by Scripts/make-system-library-fixtures.sh; no libc, no DWARF.

static int run_loop_pass(int mode) __asm__("-[UIApplication _run]");
static int send_event(int mode) __asm__("-[UIApplication sendEvent:]");

__attribute__((noinline)) static int run_loop_pass(int mode) {
    int value = mode;
    for (int k = 0; k < 4; k++) value = value * 5 + k;
    return value;
}

__attribute__((noinline)) static int send_event(int mode) {
    return run_loop_pass(mode) + 1;
}

int UIApplicationMain(int argc, int mode) {
    int total = 0;
    for (int k = 0; k < argc; k++) total += send_event(mode + k);
    return total;
}
