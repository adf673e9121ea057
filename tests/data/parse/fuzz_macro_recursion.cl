// ARGS:
// Found by fuzzing: a self-referencing macro inside a malformed one.
#define MAX(a, b)b)x
#define idx MAX(, idx)
 idx
