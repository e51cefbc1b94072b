// Stands in for the C core of a 32-bit iOS app (armv7, iOS 9): compiled Thumb-2, as Xcode built armv7 code, with
// one function compiled in ARM mode (as hand-tuned or older code often was). Every function the others call is
// static, so the object's only text relocations are branches inside __text: the fixture script lays the object out
// in an executable by a whole-page shift, which keeps those branches valid without re-encoding them.
//
// The shapes the Thumb-aware lookup must get right:
// - a call to a noreturn function as the last instruction of a function, so the return address is the first byte
//   of the next function (ledger_value -> ledger_fail, ledger_check -> ledger_fail);
// - 16-bit (blx rN) and 32-bit (bl) calls, so the call starts 2 or 4 bytes before the return address;
// - inlined code around a call (checked_index inlined into ledger_value);
// - a Thumb -> ARM call (blx to ledger_checksum, an ARM-mode function, 4-byte instructions).

typedef struct {
    int count;
    int limit;
    int values[8];
    int (*weigh)(int);
} Ledger;

__attribute__((noinline, noreturn)) static void ledger_fail(int code)
{
    (void)code;
    __builtin_trap();
}

static inline __attribute__((always_inline)) int checked_index(const Ledger *ledger, int index)
{
    if (index < 0 || index >= ledger->count) {
        ledger_fail(index);
    }
    return index;
}

__attribute__((noinline)) static int ledger_value(const Ledger *ledger, int index)
{
    return ledger->values[checked_index(ledger, index)];
}

__attribute__((noinline)) static void ledger_check(const Ledger *ledger)
{
    if (ledger->count > ledger->limit) {
        ledger_fail(ledger->count);
    }
}

__attribute__((noinline)) static int ledger_sum(const Ledger *ledger)
{
    int sum = 0;
    for (int i = 0; i < ledger->count; i++) {
        sum += ledger->weigh(ledger_value(ledger, i));
    }
    return sum;
}

__attribute__((noinline, target("arm"))) static int ledger_checksum(const Ledger *ledger)
{
    int checksum = 17;
    for (int i = 0; i < ledger->count; i++) {
        checksum = checksum * 31 + ledger_value(ledger, i);
    }
    return checksum ^ ledger_sum(ledger);
}

int ledger_balance(Ledger *ledger)
{
    ledger_check(ledger);
    int total = ledger_sum(ledger);
    return total + ledger_checksum(ledger);
}
