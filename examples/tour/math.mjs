export const double = (x) => x * 2;
