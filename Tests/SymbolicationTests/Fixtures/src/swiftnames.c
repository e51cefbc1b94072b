/* Fixture unit 3 (DWARF 5): C functions whose assembler names are Swift manglings of each era, so the symbol
   table and the debug information carry the names a Swift binary would. */
#include "demo.h"

/* $s (Swift 5 stable ABI): closure #1 in ViewController.viewDidLoad() */
__attribute__((noinline)) int view_did_load_closure(int value)
    __asm__("_$s4Demo14ViewControllerC11viewDidLoadyyFyycfU_");
__attribute__((noinline)) int view_did_load_closure(int value) {
    return value * 3 + 1;
}

/* $S (Swift 4.2): Model.update(_:) */
__attribute__((noinline)) int model_update(int value) __asm__("_$S4Demo5ModelV6updateyySiF");
__attribute__((noinline)) int model_update(int value) {
    return view_did_load_closure(value) - 2;
}

/* _T0 (Swift 4.0 and 4.1): Widget.draw(); Mach-O adds its underscore in front of the mangled name. */
__attribute__((noinline)) int widget_draw(int value) __asm__("__T04Demo6WidgetC4drawyyF");
__attribute__((noinline)) int widget_draw(int value) {
    return model_update(value) + 7;
}

__attribute__((noinline)) int demo_swift_calls(int seed) {
    return widget_draw(seed) + view_did_load_closure(seed);
}
