// Decode boards with pzprjs and run its answer checker (used by tests/test_pzprjs.py).
// Input: JSON lines {"text": URL or pzprv3 file, "grid": ["#..", ...] (optional)}.
// Output: JSON lines {rows, cols, r, rooms, colclues, rowclues, complete, failcode}.
// Run with the path of a built pzprjs (dist/js/pzpr.js) as the first argument.
var pzpr = require(process.argv[2]);
var lines = require("fs").readFileSync(0, "utf-8").split("\n").filter(Boolean);
lines.forEach(function(line) {
  var job = JSON.parse(line);
  var puzzle = new pzpr.Puzzle();
  puzzle.open(job.text);
  var bd = puzzle.board;
  var out = { rows: bd.rows, cols: bd.cols, r: !!puzzle.getConfig("aquarium_regions"),
              rooms: [], colclues: [], rowclues: [] };
  for (var r = 0; r < bd.rows; r++) {
    var row = [];
    for (var c = 0; c < bd.cols; c++) {
      row.push(bd.roommgr.components.indexOf(bd.getc(2 * c + 1, 2 * r + 1).room));
    }
    out.rooms.push(row);
  }
  for (var c = 0; c < bd.cols; c++) out.colclues.push(bd.getex(2 * c + 1, -1).qnum);
  for (var r = 0; r < bd.rows; r++) out.rowclues.push(bd.getex(-1, 2 * r + 1).qnum);
  if (job.grid) {
    for (var r = 0; r < bd.rows; r++) {
      for (var c = 0; c < bd.cols; c++) {
        bd.getc(2 * c + 1, 2 * r + 1).setQans(job.grid[r][c] === "#" ? 1 : 0);
      }
    }
    var check = puzzle.check(true);
    out.complete = !!check.complete;
    out.failcode = check.complete ? null : String(check[0]);
  }
  console.log(JSON.stringify(out));
});
