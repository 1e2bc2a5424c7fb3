"""Figures that leak nowhere: pyplot's only when the user is to see it on screen."""


def new_figure(size, on_screen):
    """pyplot's figure when it is to be shown (pyplot keeps it until the user closes it);
    else, when it is written to a file, a figure pyplot never holds, with Agg's canvas (it
    still saves, draws and turns into HTML): a notebook or a loop writing many files leaks no
    figure, and garbage collection frees it with what drew on it."""
    if on_screen:
        import matplotlib.pyplot as plt
        return plt.figure(figsize=size)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=size)
    FigureCanvasAgg(fig)
    return fig
