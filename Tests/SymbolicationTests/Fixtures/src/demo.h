/* Declarations shared by the fixture units. */
#ifndef DEMO_H
#define DEMO_H
#ifdef __cplusplus
extern "C" {
#endif
int checksum(int seed);
int compute(int seed);
int demo_swift_calls(int seed);
int demo_cpp_calls(int seed);
#ifdef __cplusplus
}
#endif
#endif
