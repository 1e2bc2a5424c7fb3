"""The kinematic tree of a URDF as drawn for people: links (with mass), joints (type, axis,
DoF), chains of joints through massless links (multi-DoF joints) optionally folded into one
edge. Text (``urdf2dyn info``), Graphviz DOT and a matplotlib figure share this walk."""


def tree(model):
    """(links {name: mass}, joints [(name, type, parent, child, axis, dof)], root link) of
    the model as its file describes it (the document the core read: a URDF's links and
    joints, an .osim's bodies, child-frame links and joints, custom ones with their
    coordinates' count as DoF), plus the floating root joint when floating_base."""
    links_doc, joints_doc = model._c.document()
    links = {name: (mass or 0.0) for name, _, mass, _, _ in links_doc}
    movable = {j.name: j for j in model.joints}
    joints = []
    for name, _, kind, parent, child, _ in joints_doc:
        j = movable.get(name)
        axis = j.axis if j is not None and kind in _AXIAL else None
        joints.append((name, kind, parent, child, axis, j.nv if j is not None else 0))
    children = {j[3] for j in joints}
    root = next((n for n in links if n not in children), None)
    if model.floating_base and root is not None:
        joints.insert(0, ("root_joint", "floating", "<world>", root, None, 6))
        links = {"<world>": 0.0, **links}
        root = "<world>"
    return links, joints, root


_AXIAL = ("revolute", "continuous", "prismatic", "planar")


def axis_name(axis):
    if axis is None:
        return ""
    names = {(1.0, 0.0, 0.0): "x", (0.0, 1.0, 0.0): "y", (0.0, 0.0, 1.0): "z",
             (-1.0, 0.0, 0.0): "-x", (0.0, -1.0, 0.0): "-y", (0.0, 0.0, -1.0): "-z"}
    return names.get(tuple(round(a, 9) + 0.0 for a in axis), " ".join(f"{a:g}" for a in axis))


def groups(links, joints, root, full):
    """Tree edges, each a list of consecutive joints: with full=False a chain through massless
    links that have exactly one child joint collapses into one edge (a multi-DoF joint)."""
    by_parent = {}
    for j in joints:
        by_parent.setdefault(j[2], []).append(j)
    edges = {}

    def walk(link):
        out = []
        for j in by_parent.get(link, []):
            chain = [j]
            child = j[3]
            while (not full and links.get(child, 0.0) == 0.0 and len(by_parent.get(child, [])) == 1
                   and by_parent[child][0][1] in _ONE_DOF and j[1] in _ONE_DOF):
                nxt = by_parent[child][0]
                chain.append(nxt)
                child = nxt[3]
            out.append((chain, child))
        edges[link] = out
        for _, child in out:
            walk_stack.append(child)

    walk_stack = [root]
    while walk_stack:
        link = walk_stack.pop()
        if link not in edges:              # (a valid URDF is a tree; be safe anyway)
            walk(link)
    return edges


_ONE_DOF = ("revolute", "continuous", "prismatic")


def edge_label(chain):
    dof = sum(j[5] for j in chain)
    if len(chain) == 1:
        name, jtype, *_ = chain[0]
        ax = axis_name(chain[0][4])
        return name, f"{jtype}{' ' + ax if ax and jtype != 'fixed' else ''}", dof
    runs = []                      # consecutive joints of one type: "3 x prismatic xyz"
    for j in chain:
        if runs and runs[-1][0] == j[1]:
            runs[-1][1].append(axis_name(j[4]))
        else:
            runs.append((j[1], [axis_name(j[4])]))
    kind = " + ".join(f"{len(ax)} x {t}" + (f" {''.join(ax)}" if any(ax) else "")
                      for t, ax in runs)
    return " ".join(j[0] for j in chain), kind, dof


def dot(model, links, edges, root):
    """Graphviz DOT text: links are boxes (mass in kg; massless ones dashed), joints are
    labelled edges (name, type and axes, DoF)."""
    def q(text):
        esc = str(text).replace("\\", "\\\\").replace('"', '\\"')
        return '"' + esc.replace("\n", "\\n") + '"'

    lines = [f"digraph {q(model.name)} {{", "  rankdir=TB;",
             '  node [shape=box, style="rounded,filled", fillcolor="#eef3fb", fontsize=10];',
             "  edge [fontsize=9];"]
    order, seen = [root], set()
    while order:
        link = order.pop(0)
        if link in seen:
            continue
        seen.add(link)
        mass = links.get(link, 0.0)
        if mass > 0:
            lines.append(f"  {q(link)} [label={q(f'{link}' + chr(10) + f'{mass:.4g} kg')}];")
        else:
            lines.append(f'  {q(link)} [fillcolor="#ffffff", style="rounded,dashed"];')
        for chain, child in edges.get(link, []):
            name, kind, dof = edge_label(chain)
            label = q(f"{name}" + chr(10) + f"{kind}, {dof} DoF")
            style = ", style=dashed" if dof == 0 else ""
            lines.append(f"  {q(link)} -> {q(child)} [label={label}{style}];")
            order.append(child)
    lines.append("}")
    return "\n".join(lines) + "\n"


def layout(edges, root):
    """(x, depth) of every link: leaves side by side in depth-first order, each parent
    centred over its children (no recursion: trees may be deep)."""
    order, stack = [], [(root, 0)]
    while stack:
        link, depth = stack.pop()
        order.append((link, depth))
        stack += [(child, depth + 1) for _, child in reversed(edges.get(link, []))]
    pos, next_x = {}, 0.0
    for link, depth in order:                  # leaves, left to right
        if not edges.get(link):
            pos[link] = (next_x, depth)
            next_x += 1.0
    for link, depth in reversed(order):        # then parents, children first
        kids = [child for _, child in edges.get(link, [])]
        if kids:
            pos[link] = (sum(pos[k][0] for k in kids) / len(kids), depth)
    return pos


def plot_tree(model, path=None, full=False, ax=None):
    """Draw the kinematic tree with matplotlib: links as boxes (mass; massless links
    dashed), joints as labelled edges (name, type and axis, DoF; fixed joints, which the
    model merges into their parent body, dashed and grey). Saves to path when given;
    returns the figure.

    On ax: drawn on the caller's axes, whose figure stays theirs. Else with path: a figure
    outside pyplot (nothing left open, the backend untouched: a notebook or a loop writing
    many files leaks no figure). Else a pyplot figure, for plt.show()."""
    try:
        import matplotlib  # noqa: F401 -- only to say what is missing
    except ImportError as e:
        raise ImportError("plot_tree needs matplotlib: pip install 'urdf2dyn[plot]'") from e
    links, joints, root = tree(model)
    edges = groups(links, joints, root, full)
    pos = layout(edges, root)
    width = max(x for x, _ in pos.values()) + 1
    depth = max(d for _, d in pos.values()) + 1
    if ax is None:
        from ._figures import new_figure
        fig = new_figure((max(6.0, 2.3 * width), max(3.0, 1.25 * depth)),
                         on_screen=path is None)
        ax = fig.add_subplot()
    else:
        fig = ax.figure
    for link, (x, d) in pos.items():
        for chain, child in edges.get(link, []):
            name, kind, dof = edge_label(chain)
            cx, cd = pos[child]
            fixed = dof == 0
            ax.plot([x, cx], [-d, -cd], color="0.6" if fixed else "tab:blue",
                    ls="--" if fixed else "-", lw=1.2, zorder=1)
            text = f"{name}\n{kind}" + (" (merged)" if fixed else f", {dof} DoF")
            ax.text(x + 0.62 * (cx - x), -(d + 0.62 * (cd - d)), text, ha="center", va="center", fontsize=7,
                    color="0.4" if fixed else "tab:blue", zorder=3,
                    bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85))
    for link, (x, d) in pos.items():
        mass = links.get(link, 0.0)
        label = f"{link}\n{mass:.3g} kg" if mass > 0 else link
        ax.text(x, -d, label, ha="center", va="center", fontsize=8, zorder=4,
                bbox=dict(boxstyle="round,pad=0.3", fc="#eef3fb" if mass > 0 else "white",
                          ec="0.3", ls="-" if mass > 0 else "--"))
    ax.set_xlim(-0.7, width - 0.3)
    ax.set_ylim(-depth + 0.5, 0.5)
    ax.set_axis_off()
    ax.set_title(f"{model.name}: {len(model.joints)} movable joints, nv = {model.nv}",
                 fontsize=10)
    if path is not None:
        from ._safe_files import replacing
        with replacing(path) as tmp:
            fig.savefig(tmp, dpi=120, bbox_inches="tight")
    return fig
