// ARGS: --global 6 --arg out=int[6] --arg pairs=int[12] --sched round-robin --json
// Typedefs, structs (nested, copied, passed by value), enums, switch with fall-through,
// and a constant table at program scope.
typedef enum { RED, GREEN = 5, BLUE } colour;

typedef struct {
    int x;
    int y;
} point;

struct segment {
    point from;
    point to;
    colour c;
};

__constant int weights[] = { 10, 20, 30 };

int length(struct segment s) { s.from.x = 1000; return (s.to.x - s.from.x) + (s.to.y - s.from.y); }

__kernel void shapes(__global int *out, __global int *pairs)
{
    int i = get_global_id(0);
    struct segment s = { { i, 2 * i }, { 3 * i, 5 }, GREEN };
    struct segment copy;
    copy = s;
    copy.to.y += 1;
    int score = 0;
    switch (i % 4) {
    case 0:
        score = weights[0];
        break;
    case 1:
        score = weights[1];
    case 2:
        score += weights[2];
        break;
    default:
        score = -1;
    }
    point *p = &copy.from;
    p->y = p->y + 100;
    out[i] = score + length(copy) * (copy.c == GREEN) + BLUE;
    pairs[2 * i] = s.from.x + s.to.y;
    pairs[2 * i + 1] = copy.from.y + sizeof(struct segment);
}
