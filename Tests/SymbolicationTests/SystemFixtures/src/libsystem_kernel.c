// A stand-in for libsystem_kernel.dylib: exported entry points and a file-local helper, no libc, no DWARF.
// Built by Scripts/make-system-library-fixtures.sh; the crash reports in ../reports have frames inside these.

__attribute__((noinline)) static int kernel_trap_number(int selector) {
    int value = selector * 3;
    for (int k = 0; k < selector; k++) value ^= k << 2;
    return value;
}

int mach_msg2_trap(int selector, int option) {
    int value = kernel_trap_number(selector);
    return value + option;
}

int mach_msg2_internal(int selector, int option) {
    int first = mach_msg2_trap(selector, option);
    int second = mach_msg2_trap(option, selector);
    return first - second;
}

int __pthread_kill(int thread, int signal) {
    int value = kernel_trap_number(thread + signal);
    return value * 7;
}
