"""Atlantic Star's ship cards typed once (issue 31): each card's entry for every sea is kept in
the data folder (`data setup atlantic-star`, or asked when a voyage first names it), a voyage
names its cards and the companion adds up the legs; the old "5,M,3,2" keeps working. The cards
below are TEST values (nobody here has the printed cards)."""

from __future__ import annotations

import json

try:
    from shell_support import drive
except ImportError:  # run from the repository root
    from tests.shell_support import drive

START = "new atlantic-star --players Ann,Bob\n" + "".join(
    f"charter {p} 0\n" for p in ["Ann", "Bob", "Ann", "Bob", "Ann", "Bob"])


def voyage(status, name: str, sea: str) -> dict:
    return next(x for x in status()["seas"][sea]["ranking"] if x["owner"] == name)


def test_setup_takes_the_cards_one_by_one_and_a_voyage_adds_up_their_legs(home, capsys, run, script, status):
    drive(home, "data setup atlantic-star\n" + "skip\n" * 5 + "Rhea\n5,X,3,2\n"
          "oceana\nm m m m\nTitan\n4,2\n4,2,1,1\nrhea\n\nexit\n")
    out = " ".join(capsys.readouterr().out.split())
    assert "Ship cards (0 typed so far)" in out
    assert "Type 4 entries, one per sea in the board's order" in out  # "4,2" asked again
    assert "RHEA is typed already (5,X,3,2)" in out
    assert "3 ship cards added; 3 typed in all" in out
    shown = run(["data", "show", "atlantic-star", "ships"], expect=0).stdout
    assert json.loads(shown.split("\nsource:")[0]) == {"RHEA": ["5", "X", "3", "2"], "OCEANA": ["M", "M", "M", "M"],
                                                      "TITAN": ["4", "2", "1", "1"]}
    code, out, err = script(START + "voyage Ann baltic --ships Rhea,OCEANA,titan --class 1\n")
    assert (code, err) == (0, ""), err
    assert "Ann staged a Baltic voyage worth 13 in the 1-star class: 3rd of 3." in out  # 5 + 1 + 4, bonus 3
    mine = voyage(status, "Ann", "baltic")
    assert mine["value"] == 13
    code, out, err = script("charter Bob 0\ncharter Ann 0\nvoyage Bob mediterranean --ships rhea,oceana,titan,rhea --class 2\n")
    assert (code, err) == (0, ""), err
    assert voyage(status, "Bob", "mediterranean")["value"] == 3  # X voids the bonus: 0 + 1 + 2 + 0


def test_the_old_way_of_typing_the_legs_keeps_working(home, script, status):
    code, out, err = script(START + "voyage Ann baltic --cards 5,M,3 --class 1\n")
    assert (code, err) == (0, ""), err
    assert voyage(status, "Ann", "baltic")["value"] == 12


def test_a_card_nobody_typed_is_asked_once_in_the_shell_and_kept(home, capsys, script, status, run):
    script(START)
    drive(home, "voyage Ann baltic --ships Ceres,Ceres,Ceres --class 1\n6,1,1,1\nexit\n")
    out = " ".join(capsys.readouterr().out.split())
    assert out.count("Type 4 entries") == 0
    assert voyage(status, "Ann", "baltic")["value"] == 21  # 6 x 3 + bonus 3: Ceres asked once, not three times
    shown = run(["data", "show", "atlantic-star", "ships.CERES"], expect=0).stdout
    assert json.loads(shown.split("\nsource:")[0]) == ["6", "1", "1", "1"]


def test_a_card_nobody_typed_is_refused_in_a_script_naming_what_to_type(home, script, status):
    code, out, err = script(START + "voyage Ann baltic --ships Ceres,Rhea,Titan --class 1\n")
    assert code != 0
    assert "The printed value ships.CERES (the ship card CERES: its entry for each sea) is not known yet" in err
    assert "Traceback" not in err
    assert not status()["seas"]["baltic"]["ranking"]


def test_one_way_at_a_time(home, script):
    code, out, err = script(START + "voyage Ann baltic --ships A,B,C --cards 5,M,3 --class 1\n")
    assert code != 0 and "Name the voyage's ship cards as --ships A,B,C" in err


def test_a_phone_names_the_cards_and_a_card_nobody_typed_is_the_printed_value_it_needs(home, script, run, status):
    try:
        from serve_support import post_move, site_and_client
    except ImportError:
        from tests.serve_support import post_move, site_and_client
    run(["data", "set", "atlantic-star", "ships.RHEA", '["5", "X", "3", "2"]'], expect=0)
    run(["data", "set", "atlantic-star", "ships.TITAN", '["M", "2", "X", "1"]'], expect=0)
    code, _out, err = script(START)
    assert code == 0, err
    _site, client, links = site_and_client(home, status()["session"], ["Ann", "Bob"])
    page = client.get(f"/p/{links['Ann']}").text
    assert 'name="ships"' in page  # the voyage's form has a field for the cards' names
    refused = post_move(client, links["Ann"], "voyage", {"sea": "baltic", "stars": "1", "ships": "Rhea,Ceres,Titan"})
    assert refused.status_code != 303 and "ships.CERES" in refused.text  # asked for, never invented
    assert not status()["seas"]["baltic"]["ranking"]
    response = post_move(client, links["Ann"], "voyage", {"sea": "baltic", "stars": "1", "ships": "rhea,titan,rhea"})
    assert response.status_code == 303, response.text[:300]
    assert voyage(status, "Ann", "baltic")["value"] == 14  # 5 + 1 (mail) + 5, bonus 3
    event = json.loads(run(["log", "--json"], expect=0).stdout)[-1]["event"]
    assert event["ships"] == ["RHEA", "TITAN", "RHEA"] and event["cards"] == ["5", "M", "5"]


def test_data_set_takes_a_card_as_json_and_refuses_one_that_does_not_fit(run):
    run(["data", "set", "atlantic-star", "ships.RHEA", '["5", "m", "3", "2"]'], expect=0)
    for wrong in ('["5", "3"]', '["5", "Q", "3", "2"]', '["0", "X", "3", "2"]'):
        result = run(["data", "set", "atlantic-star", "ships.TITAN", wrong], expect=1)
        assert "does not fit ships.TITAN" in result.output and "Traceback" not in result.output
