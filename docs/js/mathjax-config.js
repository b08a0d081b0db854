// MathJax 3 settings for pymdownx.arithmatex (generic mode). MathJax itself is
// vendored in docs/js/mathjax/ (tex-svg.js, Apache-2.0): the site needs no CDN.
window.MathJax = {
  tex: {
    inlineMath: [["\\(", "\\)"]],
    displayMath: [["\\[", "\\]"]],
    processEscapes: true,
    processEnvironments: true,
    tags: "none"
  },
  options: {
    ignoreHtmlClass: ".*|",
    processHtmlClass: "arithmatex",
    enableMenu: false
  }
};
