/* Aquarium as a GNU MathProg (AMPL-compatible) model.

   Each cell belongs to a tank (reg[i,j]). Water in a tank stands at one
   flat level: the cells of one tank in one row are all wet or all dry, and
   a wet cell has water in every cell of its tank below it.

     x[i,j] in {0,1}                                          (0)
     sum{j in J} x[i,j] = R[i]      for every clued row i       (1)
     sum{i in I} x[i,j] = C[j]      for every clued column j    (2)
     x[i,j] <= x[k,l]   same tank, k > i (row k is lower)       (3)
     x[i,j]  = x[i,l]   same tank, same row                     (4)

   (3) here joins every pair of rows of a tank, not just consecutive ones:
   the same solutions, more rows, and the simplest statement of "water
   falls down". docs/aquarium.md compares it with the package's chain.

   Data: `thermomilp export PUZZLE --to dat -o board.dat`, then
     glpsol -m models/aquarium.mod -d board.dat                             */

param H integer > 0;
param W integer > 0;
set I := 0..H-1;
set J := 0..W-1;

set RowsClued within I;
set ColsClued within J;
param R{RowsClued} integer >= 0;
param C{ColsClued} integer >= 0;

param reg{I, J} integer >= 0;        # tank of each cell

var x{I, J} binary;                  # (0) 1 = water in cell (i, j)

s.t. row{i in RowsClued}: sum{j in J} x[i, j] = R[i];                      # (1)
s.t. col{j in ColsClued}: sum{i in I} x[i, j] = C[j];                      # (2)
s.t. fall{i in I, j in J, k in I, l in J: k > i and reg[k, l] = reg[i, j]}: # (3)
    x[i, j] <= x[k, l];
s.t. flat{i in I, j in J, l in J: l > j and reg[i, l] = reg[i, j]}:        # (4)
    x[i, j] = x[i, l];

solve;

for {i in I} {
    printf "GRID ";
    printf {j in J} "%s", if x[i, j] > 0.5 then "#" else ".";
    printf "\n";
}
end;
