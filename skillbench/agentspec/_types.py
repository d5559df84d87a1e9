"""The record of one shipped agent: everything skillbench knows about it that is data.

An agent is an ``AgentSpec``: its package and verified releases, where it looks for skills,
how it loads them (``Precedence``), how to start it offline and where its request carries
the listing, how the listing is written, and how a model triggers a skill. A generic driver
(``skillbench.agents``) and a template renderer (``skillbench.listing``) read it; an agent
keeps code only for rules no record can say (``own_rules``: budget stages, a capture that
needs more than one turn).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from skillbench.catalog import Precedence, SourceKind
from skillbench.types import JsonObject

PackageRegistry = Literal["npm", "pypi"]


@dataclass(frozen=True)
class Package:
    """Where the agent's CLI comes from and what it is called once installed."""

    registry: PackageRegistry
    name: str
    executable: str

    def install_command(self, version: str) -> str:
        """The command that installs ``version``."""
        if self.registry == "pypi":
            return f"pip install {self.name}=={version}"
        return f"npm install -g {self.name}@{version}"

    def pin(self, version: str) -> str:
        """``name@version`` (npm) or ``name==version`` (PyPI), as an install line holds it."""
        return f"{self.name}=={version}" if self.registry == "pypi" else f"{self.name}@{version}"


@dataclass(frozen=True)
class Release:
    """One release of the agent verified by capture.

    Attributes:
        version: as the CLI's ``--version`` reports it.
        verified: how it was verified (one line, shown by ``skillbench agents``).
        pinned: CI installs and tests this release (one per agent).
        rules: data of this release that the agent's own rules read (such as the model
            catalogue that sets its budget); None when the release lists by the agent's
            common rules.
    """

    version: str
    verified: str = "byte-identical captures"
    pinned: bool = False
    rules: object | None = None


@dataclass(frozen=True)
class SkillFolder:
    """A skills folder the agent reads.

    Attributes:
        scope: the source kind skills found there have.
        path: ``~/…`` under the user's home, absolute, or relative to the project root.
        install: a capture installs sources of ``scope`` here (the first such folder).
    """

    scope: SourceKind
    path: str
    install: bool = False

    @property
    def in_home(self) -> bool:
        return self.path.startswith("~/")


ApiShape = Literal["anthropic-messages", "openai-chat", "openai-responses", "generate-content"]
"""The model API an agent speaks to its endpoint."""

Placement = Literal["reminder", "system", "system_message"]
"""Where the listing sits in the prompt: ``reminder``, a per-turn ``<system-reminder>`` before
the user's message (the system prompt stays cache-stable); ``system``, in the system
(developer) instructions; ``system_message``, a system-role message after the user's turn."""

Region = Literal["system", "user", "any", "tools"]
"""Which texts of a request may hold the listing: system and developer instructions, the
user's messages, any message, or the descriptions of the tools the request declares (an
agent that names its skills in its skill tool's description)."""


@dataclass(frozen=True)
class Locator:
    """Where the listing block sits in a request.

    Attributes:
        region: which texts are searched, in request order.
        open / close: the block runs from ``open`` through ``close`` (both kept); an empty
            ``close``: through the end of the text (a listing that ends its text, whose
            last character may also occur inside a skill's name).
        contains: the block must hold one of these (empty: any block between the tags).
        keep_close: ``close`` is part of the block (False: the block ends where ``close``
            starts, for a listing that ends where the next section of the prompt begins).
    """

    region: Region
    open: str
    close: str
    contains: tuple[str, ...] = ()
    keep_close: bool = True


@dataclass(frozen=True)
class Wire:
    """How the agent talks to its model endpoint and where its listing goes.

    Attributes:
        api: the API shape of its requests.
        listing: where the listing block is; None when the agent's own rules find it.
        placement: where in the prompt the listing sits, in words skillbench's profiles use.
        lists_none: with no skills the agent still sends a (nearly empty) listing block;
            False: it leaves the block out, so no turn without skills can be read.
    """

    api: ApiShape
    listing: Locator | None
    placement: Placement
    lists_none: bool = True


SettingsFormat = Literal["json", "toml"]


@dataclass(frozen=True)
class Launch:
    """How one offline turn of the agent starts.

    Argument and environment values may hold ``$executable``, ``$prompt``, ``$model``,
    ``$base_url`` and ``$home`` (``string.Template`` names).

    Attributes:
        argv: the command of one non-interactive turn; an argument ``$model_args`` stands
            for ``model_argv`` when a model is named, else for nothing.
        env: the environment beyond PATH and locale (nothing else is inherited).
        default_model: the model named when a turn names none (None: the agent's own
            default, and ``model_argv`` is left out).
        model_argv: what ``$model_args`` stands for when a model is named.
        fixed_model: the agent runs only ``default_model`` (a capture declares one).
        settings_file: the settings file under HOME (None: no settings are modelled).
        settings_format: how settings are written there.
        settings: settings every turn gets, merged under the turn's own.
        files: other files written under HOME (path → text).
        endpoint_files: files written under HOME once the endpoint is up, their text
            holding ``$base_url`` (for an agent that reads its endpoint only from a file).
        budget_variable: the environment variable that sets the listing budget in
            characters, where the agent has one.
        keeps_usage: the agent keeps a skill-usage history that a turn can seed.
        project_dirs: folders made in the project before a turn (an agent that reads project
            skills only inside a repository it finds by its ``.git`` folder).
    """

    argv: tuple[str, ...]
    env: Mapping[str, str] = field(default_factory=dict)
    default_model: str | None = None
    model_argv: tuple[str, ...] = ()
    fixed_model: bool = False
    settings_file: str | None = None
    settings_format: SettingsFormat = "json"
    settings: JsonObject = field(default_factory=dict)
    files: Mapping[str, str] = field(default_factory=dict)
    endpoint_files: Mapping[str, str] = field(default_factory=dict)
    budget_variable: str | None = None
    keeps_usage: bool = False
    project_dirs: tuple[str, ...] = ()


Escape = Literal["none", "xml", "xml_numeric_apostrophe"]
"""``xml``: ``& < > " '`` as entities (``'`` as ``&apos;``); ``xml_numeric_apostrophe``: the
same with ``'`` as ``&#39;``."""

Order = Literal["name", "code_points", "scope_then_name", "loaded"]
"""``name``: by a locale comparison of the name, built-ins sorted in; ``code_points``: by the
listed name's code points (upper case before lower case), built-ins sorted in, a tie kept in
load order; ``scope_then_name``:
project skills by name, then each other folder in turn by name (code points);
``loaded``: as the catalog loaded them (scope by scope, each folder in the agent's walk
order, ``Precedence.walk``), a skill replacing one of its name in that one's place."""

BuiltinPlace = Literal["first", "last", "sorted"]
Shadow = Literal["none", "skip", "in_place", "keys"]
"""A skill whose listed name an earlier one has: ``none``: both are listed; ``skip``: a
built-in is left out when a user's skill has its name; ``in_place``: the later one takes the
earlier one's place (built-ins come first); ``keys``: every skill answers to its folder's
name and its own, and one is left out once skills loaded after it (built-ins load first)
took each of those names."""
Label = Literal["name", "folder"]
"""What an element's ``{name}`` holds: the skill's name, or the name of its folder (of its
file without ``.md`` for a built-in), for an agent that calls a skill by its folder."""
Location = Literal["path", "scope", "none"]
"""What an element's location holds: the skill file's path under its folder, the scope's
word, or nothing."""


@dataclass(frozen=True)
class Overflow:
    """The listing's budget: elements in full while they fit, then the rest by name.

    Attributes:
        budget: characters of full elements (each counts its length and a newline).
        names_prefix: the line naming the skills past the budget starts so.
        names_cap: the names line, prefix included, takes names (joined by ``, ``) while it
            stays within this many characters (None: no cap).
        names_more: what follows the last name when the cap left some out (``{count}``:
            how many).
    """

    budget: int
    names_prefix: str
    names_cap: int | None = None
    names_more: str = ""


@dataclass(frozen=True)
class FirstLineCut:
    """Past ``threshold`` UTF-16 units of elements, skills other than built-ins keep only
    the first line of their description."""

    threshold: int


@dataclass(frozen=True)
class Detail:
    """Front-matter fields an element lists after the description, where the agent's reader
    read them (``Markdown.listed``): ``template`` with ``{fields}``, each set field written
    as its label and text, joined by ``joiner``.

    Attributes:
        template: the detail's text, e.g. `` ({fields})``.
        fields: (field, label) pairs, in the order the agent writes them.
        joiner: what stands between two fields.
    """

    template: str
    fields: tuple[tuple[str, str], ...]
    joiner: str = ", "


@dataclass(frozen=True)
class ListingFormat:
    """A listing made of one element per skill, as the template renderer writes it.

    Attributes:
        element: the element's text with ``{name}``, ``{text}`` and ``{location}`` holes
            (the location may occur twice).
        wrapper: the whole listing with ``{elements}`` (joined by ``separator``).
        separator: what stands between two elements (a newline, or ``, `` for a listing
            of names on one line).
        escape: how name and text are escaped; ``location_escape`` the location's.
        text_from: the description as the front matter holds it (``raw``: line breaks and
            edge spaces kept) or ``stripped`` of edge whitespace.
        when_joiner: joins ``when_to_use`` to the description (None: not listed).
        order: see ``Order``.
        builtins: where the agent's own skills go; ``builtin_location`` is their location.
        location: what the element's location shows; ``locations`` maps a scope to its word.
        unsafe_name: characters a name may not hold, written as ``-``.
        overflow / first_line_cut: budgets, where the agent has them.
        shadow: what a second skill of one listed name does (see ``Shadow``).
        max_description: a longer description (stripped) keeps the skill from loading.
        never_lists: source kinds the agent has no skills of (besides its own built-ins).
        label: what ``{name}`` holds (see ``Label``).
        alias: with ``label`` ``folder``, what the element's ``{alias}`` hole holds when
            the skill's own name differs from its folder's (``{name}`` is the skill's
            name, e.g. `` ({name})``); empty otherwise.
        details: front-matter fields written after the description (see ``Detail``).
    """

    element: str
    wrapper: str
    separator: str = "\n"
    escape: Escape = "none"
    location_escape: Escape = "none"
    text_from: Literal["raw", "stripped"] = "raw"
    when_joiner: str | None = None
    order: Order = "name"
    builtins: BuiltinPlace = "sorted"
    builtin_location: str = ""
    location: Location = "path"
    locations: Mapping[SourceKind, str] = field(default_factory=dict)
    unsafe_name: str = ""
    overflow: Overflow | None = None
    first_line_cut: FirstLineCut | None = None
    shadow: Shadow = "none"
    max_description: int | None = None
    never_lists: tuple[SourceKind, ...] = ()
    label: Label = "name"
    alias: str = ""
    details: tuple[Detail, ...] = ()


ExplicitForm = Literal["mention", "words"]
"""How a user names a skill outright: ``$name`` (``mention``) or in words."""


@dataclass(frozen=True)
class Delegate:
    """A sub-agent tool the model calls with a task (an agent with no ``context: fork``).

    Attributes:
        tool: the tool's name.
        arguments: its arguments; ``$task`` in a string value is replaced by the task, which
            asks the sub-agent to use the skill.
    """

    tool: str
    arguments: JsonObject


@dataclass(frozen=True)
class Sessions:
    """How a scripted conversation of several turns runs on the agent (``cost --measure``).

    Attributes:
        first / resume: CLI arguments that start / continue the conversation (``$session_id``
            is replaced by a fresh id).
        settings: settings under which the scripted tool calls run without asking anyone.
        read_tool / read_argument: the file-reading tool and its path argument: the real work
            a scripted sub-agent does.
        args_argument: the skill tool's argument carrying the skill's arguments (None: it
            takes none).
        subagent_text: a text only a sub-agent's system prompt carries.
        subagent_lacks: a tool the main conversation declares and a sub-agent never does (a
            request declaring no tools at all is the agent's own aside, a title, not one).
        fork: how a skill runs in a sub-agent: ``context``, the skill declares
            ``context: fork`` and the skill tool starts the sub-agent; a ``Delegate``, the
            model hands the sub-agent a task and the sub-agent calls the skill tool itself.
    """

    first: tuple[str, ...]
    resume: tuple[str, ...]
    read_tool: str
    read_argument: str
    fork: Literal["context"] | Delegate
    settings: JsonObject = field(default_factory=dict)
    args_argument: str | None = None
    subagent_text: str | None = None
    subagent_lacks: str | None = None


@dataclass(frozen=True)
class Live:
    """How a model triggers a skill through the agent, and what live runs can use.

    Attributes:
        skill_tool / skill_argument: the tool a model calls and the argument naming the
            skill (None: no skill tool; reading a listed ``SKILL.md`` is the trigger).
        explicit: how a positive control names its skill.
        warm: the agent can answer request after request in one process.
        mention_injects: a ``$name`` in the request makes the agent add that skill's file
            to the conversation itself.
        sessions: how a scripted multi-turn session runs (None: ``cost --measure`` cannot
            measure the agent).
        rereads_usage: a warm process reads its usage history again for each request, so
            requests of different usage (and the counts a skill call adds) can share one
            process once the history is written before each request (verified by capture).
    """

    skill_tool: str | None
    skill_argument: str | None = None
    explicit: ExplicitForm = "words"
    warm: bool = False
    mention_injects: bool = False
    sessions: Sessions | None = None
    rereads_usage: bool = False


@dataclass(frozen=True)
class SessionLogs:
    """Where the agent keeps its session logs, for ``skillbench import`` (their reader is the
    agent's own: ``skillbench.transcripts.LOG_PARSERS``).

    Attributes:
        folder: the folder holding them (``~/…``), as help texts show it.
        suffixes: how the log files' names end (a walked folder yields those).
        keeps_listings: the logs record each listing shown to the model and an import
            writes them (``listings.jsonl``, which ``fidelity --listings`` compares with the
            agent's profile); False: they only classify the turns.
    """

    folder: str
    suffixes: tuple[str, ...]
    keeps_listings: bool = False


@dataclass(frozen=True)
class CapRule:
    """The lint rule reporting what the agent's per-entry cap cuts (``skillbench lint``).

    Attributes:
        id / slug / summary / explanation: the rule as ``lint --explain`` prints it (ids
            never change meaning once released).
        cuts: what the cap measures: the whole ``entry`` as rendered (lint renders it with
            and without the record's ``uncapped`` options), or the ``description`` alone
            past the Agent Skills limit of 1,024 characters.
    """

    id: str
    slug: str
    summary: str
    explanation: str
    cuts: Literal["entry", "description"]


@dataclass(frozen=True)
class AgentSpec:
    """One shipped agent.

    Attributes:
        name: the profile name (``my-agent``); ``title`` how people write it.
        package: where its CLI comes from.
        releases: verified releases, oldest first (the only source of versions).
        folders: every skills folder it reads, in its scan order.
        loading: how it turns sources into a catalog (precedence, duplicates, names, walk).
        wire / launch: how to run it offline and read its request.
        listing: its listing format (None: the agent's own rules render it).
        live: skill tool, controls, warm mode.
        summary: the listing rule in one line, for help texts.
        ordering: the ordering that reproduces its listing order when a command names none.
        own_rules: the agent has code of its own beside this record (its capture driver
            or renderer), registered under its name.
        uncapped: renderer options that lift per-entry caps (for lint), where it has any.
        own_installs: source kinds the agent's own driver installs beyond its folders, and
            how (a command-line option).
        default: commands that plan or lint several profiles take this agent's when none is
            named, and help texts show it in their examples.
        owned_names: the names the agent already owns, by kind (``tool``, ``command``),
            from its public documentation or source: a skill named so is shadowed or
            confuses the model (they drift as it ships: a name missing is a missed
            warning, never a false one).
        cap_rule: the lint rule of its per-entry cap, where it has one.
        logs: its session logs, where skillbench imports them.
        variables: the ``${...}`` variables it fills in skill content (lint reports another
            of their prefix, ``${PREFIX_...}``, as a placeholder nothing fills).
        skill_homes: where each source kind keeps its skills on a user's machine, as the
            agent expands a skill's folder in its content (the invocation cost model uses
            the first record that has them).
    """

    name: str
    title: str
    package: Package
    releases: tuple[Release, ...]
    folders: tuple[SkillFolder, ...]
    loading: Precedence
    wire: Wire
    launch: Launch
    listing: ListingFormat | None
    live: Live
    summary: str
    ordering: str = "alpha"
    own_rules: bool = False
    uncapped: Mapping[str, int] = field(default_factory=dict)
    own_installs: Mapping[SourceKind, str] = field(default_factory=dict)
    default: bool = False
    owned_names: Mapping[str, frozenset[str]] = field(default_factory=dict)
    cap_rule: CapRule | None = None
    logs: SessionLogs | None = None
    variables: frozenset[str] = frozenset()
    skill_homes: Mapping[SourceKind, str] = field(default_factory=dict)

    @property
    def newest(self) -> Release:
        return self.releases[-1]

    @property
    def pinned(self) -> Release:
        """The release CI installs (the newest when none is marked)."""
        return next((r for r in self.releases if r.pinned), self.newest)

    @property
    def versions(self) -> tuple[str, ...]:
        return tuple(r.version for r in self.releases)

    def release(self, version: str) -> Release | None:
        return next((r for r in self.releases if r.version == version), None)

    def reads(self, scope: SourceKind) -> tuple[str, ...]:
        """The folders of ``scope`` the agent reads, in order."""
        return tuple(f.path for f in self.folders if f.scope == scope)

    def install_folder(self, scope: SourceKind) -> SkillFolder | None:
        """Where a capture puts sources of ``scope`` (None: it cannot)."""
        return next((f for f in self.folders if f.scope == scope and f.install), None)

    @property
    def installable(self) -> tuple[SourceKind, ...]:
        """Source kinds a capture or live run can install."""
        kinds = [f.scope for f in self.folders if f.install]
        return tuple(dict.fromkeys([*kinds, *self.own_installs]))
