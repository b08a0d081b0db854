/* Thermometers as a GNU MathProg (AMPL-compatible) model.

   The cell formulation of docs/formulation.md, constraint numbers as there:

     x[i,j] in {0,1}                                        (0)
     sum{j in J} x[i,j] = R[i]      for every clued row i     (1)
     sum{i in I} x[i,j] = C[j]      for every clued column j  (2)
     x[succ] <= x[pred]             along every thermometer   (3)

   A thermometer t has L[t] cells; cell k of it (k = 1 is the bulb) is
   (tr[t,k], tc[t,k]).  (3) says: cell k may hold mercury only if cell k-1
   does -- the mercury fills from the bulb without gaps.

   Data: `thermomilp export PUZZLE --to dat -o board.dat`, then
     glpsol -m models/thermometers.mod -d board.dat
   prints the solution as lines "GRID <row>" of '#' (filled) and '.'.       */

param H integer > 0;                 # rows
param W integer > 0;                 # columns
set I := 0..H-1;
set J := 0..W-1;

set RowsClued within I;              # rows with a clue (a clue may be missing)
set ColsClued within J;
param R{RowsClued} integer >= 0;     # row clues
param C{ColsClued} integer >= 0;     # column clues

set T;                               # thermometers
param L{T} integer > 0;              # length of each thermometer
set TK := setof{t in T, k in 1..L[t]} (t, k);
param tr{TK} integer >= 0;           # row of cell k of thermometer t (k = 1: bulb)
param tc{TK} integer >= 0;           # column of cell k of thermometer t

var x{I, J} binary;                  # (0) 1 = mercury in cell (i, j)

s.t. row{i in RowsClued}: sum{j in J} x[i, j] = R[i];                      # (1)
s.t. col{j in ColsClued}: sum{i in I} x[i, j] = C[j];                      # (2)
s.t. prec{t in T, k in 2..L[t]}:                                            # (3)
    x[tr[t, k], tc[t, k]] <= x[tr[t, k-1], tc[t, k-1]];

solve;

for {i in I} {
    printf "GRID ";
    printf {j in J} "%s", if x[i, j] > 0.5 then "#" else ".";
    printf "\n";
}
end;
